// A small stand-in for the `vscode` module: enough of the API for the extension to run in
// vitest, with every question a person would answer taken from a script, and every message,
// output line, context key and clipboard write recorded for assertions.

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly onDispose: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  #listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.#listeners.add(listener);
    return new Disposable(() => this.#listeners.delete(listener));
  };
  fire(value: T): void {
    for (const listener of [...this.#listeners]) listener(value);
  }
  dispose(): void {
    this.#listeners.clear();
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  isTrusted = false;
  supportHtml = false;
  constructor(
    public value = "",
    readonly supportThemeIcons = false,
  ) {}
  appendText(text: string): this {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, "\\$&");
    return this;
  }
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
}

export class TreeItem {
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  id?: string;
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export enum InputBoxValidationSeverity {
  Info = 1,
  Warning = 2,
  Error = 3,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum ExtensionMode {
  Production = 1,
  Development = 2,
  Test = 3,
}

export class Uri {
  private constructor(readonly fsPath: string) {}
  static file(path: string): Uri {
    return new Uri(path);
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
}

export class McpStdioServerDefinition {
  constructor(
    readonly label: string,
    public command: string,
    public args: string[] = [],
    public env: Record<string, string | number | null> = {},
    public version?: string,
  ) {}
}

// ----- the script and the records -----

export interface QuickPickItemLike {
  label: string;
  description?: string;
  detail?: string;
}

export type Answer =
  | { kind: "pick"; label: string }
  | { kind: "input"; text: string }
  /** `before` runs while the dialog is open, as if the world changed while the person read it. */
  | { kind: "modal"; choice: string | undefined; before?: () => Promise<void> }
  | { kind: "escape" };

export interface Message {
  level: "info" | "warning" | "error";
  message: string;
  modal: boolean;
  detail?: string;
  items: string[];
}

export interface InputRecord {
  title?: string;
  prompt?: string;
  text: string;
  /** What the box's own validation said about the scripted text. */
  verdict: unknown;
}

export const fake = {
  answers: [] as Answer[],
  messages: [] as Message[],
  inputs: [] as InputRecord[],
  picks: [] as { title?: string; items: QuickPickItemLike[] }[],
  output: [] as string[],
  contexts: new Map<string, unknown>(),
  settings: new Map<string, unknown>(),
  clipboard: "",
  documents: [] as { language?: string; content: string }[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  treeViews: new Map<string, { treeDataProvider: unknown; badge?: { value: number; tooltip: string } | undefined }>(),
  statusBarItems: [] as StatusBarItemFake[],
  mcpProviders: new Map<string, unknown>(),
  extensions: new Map<string, { activate(): Promise<unknown> }>(),
  configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  /** Whether the window trusts its workspace (false: Restricted Mode). */
  trusted: true,
  trustGranted: new EventEmitter<void>(),
  /** A translation bundle: the message l10n.t fills in place of each template (none: the English template). */
  bundle: undefined as ((message: string, args: readonly unknown[]) => string) | undefined,
  reset(): void {
    fake.trusted = true;
    fake.bundle = undefined;
    fake.answers = [];
    fake.messages = [];
    fake.inputs = [];
    fake.picks = [];
    fake.output = [];
    fake.contexts.clear();
    fake.settings.clear();
    fake.clipboard = "";
    fake.documents = [];
    fake.commands.clear();
    fake.treeViews.clear();
    fake.statusBarItems = [];
    fake.mcpProviders.clear();
    fake.extensions.clear();
  },
  script(...answers: Answer[]): void {
    fake.answers.push(...answers);
  },
  next(kind: Answer["kind"], question: string): Answer {
    const answer = fake.answers.shift();
    if (!answer) throw new Error(`fake vscode: no scripted answer for ${kind} "${question}"`);
    if (answer.kind !== kind && answer.kind !== "escape") throw new Error(`fake vscode: scripted ${answer.kind} given to ${kind} "${question}"`);
    return answer;
  },
};

class StatusBarItemFake {
  text = "";
  tooltip: unknown;
  command: unknown;
  backgroundColor: unknown;
  name = "";
  visible = false;
  constructor(
    readonly id: string,
    readonly alignment: StatusBarAlignment,
    readonly priority: number,
  ) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

function logChannel(name: string) {
  const line = (level: string) => (text: string) => fake.output.push(`[${name}] [${level}] ${text}`);
  return {
    name,
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    debug: line("debug"),
    trace: line("trace"),
    appendLine: line("info"),
    show: () => undefined,
    dispose: () => undefined,
  };
}

function message(level: Message["level"]) {
  return (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    const options =
      rest[0] !== null && typeof rest[0] === "object" && !("title" in (rest[0] as object)) ? (rest.shift() as { modal?: boolean; detail?: string }) : {};
    const items = rest.map((item) => (typeof item === "string" ? item : (item as { title: string }).title));
    const modal = options.modal === true;
    fake.messages.push({ level, message: text, modal, detail: options.detail, items });
    if (modal && items.length > 0) {
      const answer = fake.next("modal", text);
      if (answer.kind !== "modal") return Promise.resolve(undefined);
      return (answer.before ?? (() => Promise.resolve()))().then(() => answer.choice);
    }
    return Promise.resolve(undefined);
  };
}

export const window = {
  createOutputChannel: (name: string) => logChannel(name),
  showInformationMessage: message("info"),
  showWarningMessage: message("warning"),
  showErrorMessage: message("error"),
  async showQuickPick<T extends QuickPickItemLike>(items: readonly T[] | Promise<readonly T[]>, options?: { title?: string }): Promise<T | undefined> {
    const list = await items;
    fake.picks.push({ title: options?.title, items: list.map((item) => ({ label: item.label, description: item.description, detail: item.detail })) });
    const answer = fake.next("pick", options?.title ?? "");
    if (answer.kind !== "pick") return undefined;
    const chosen = list.find((item) => item.label.includes(answer.label));
    if (!chosen)
      throw new Error(`fake vscode: no item of "${options?.title}" contains ${JSON.stringify(answer.label)}: ${list.map((item) => item.label).join(" | ")}`);
    return chosen;
  },
  async showInputBox(options: { title?: string; prompt?: string; value?: string; validateInput?: (text: string) => unknown }): Promise<string | undefined> {
    const answer = fake.next("input", options.title ?? "");
    if (answer.kind !== "input") return undefined;
    const verdict = await options.validateInput?.(answer.text);
    fake.inputs.push({ title: options.title, prompt: options.prompt, text: answer.text, verdict });
    // A person cannot press Enter while the box shows an error.
    if (typeof verdict === "string") throw new Error(`fake vscode: input "${options.title}" refuses ${JSON.stringify(answer.text)}: ${verdict}`);
    return answer.text;
  },
  withProgress<R>(_options: unknown, task: (progress: { report(): void }, token: unknown) => Promise<R>): Promise<R> {
    return task({ report: () => undefined }, { isCancellationRequested: false });
  },
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number) {
    const item = new StatusBarItemFake(id, alignment, priority);
    fake.statusBarItems.push(item);
    return item;
  },
  createTreeView(id: string, options: { treeDataProvider: unknown }) {
    const view: { treeDataProvider: unknown; badge?: { value: number; tooltip: string } | undefined; dispose(): void } = {
      treeDataProvider: options.treeDataProvider,
      badge: undefined,
      dispose: () => fake.treeViews.delete(id),
    };
    fake.treeViews.set(id, view);
    return view;
  },
  showTextDocument: (document: unknown) => Promise.resolve(document),
};

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): Disposable {
    if (fake.commands.has(id)) throw new Error(`fake vscode: command ${id} registered twice`);
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    if (id === "setContext") {
      fake.contexts.set(args[0] as string, args[1]);
      return undefined;
    }
    const handler = fake.commands.get(id);
    if (!handler) throw new Error(`fake vscode: command ${id} is not registered`);
    return handler(...args);
  },
};

export const workspace = {
  getConfiguration(section: string) {
    return {
      get: <T>(key: string, fallback?: T): T | undefined => (fake.settings.has(`${section}.${key}`) ? (fake.settings.get(`${section}.${key}`) as T) : fallback),
      update: (key: string, value: unknown): Promise<void> => {
        fake.settings.set(`${section}.${key}`, value);
        fake.configurationChanged.fire({ affectsConfiguration: (name: string) => `${section}.${key}`.startsWith(name) });
        return Promise.resolve();
      },
    };
  },
  onDidChangeConfiguration: fake.configurationChanged.event,
  get isTrusted(): boolean {
    return fake.trusted;
  },
  onDidGrantWorkspaceTrust: fake.trustGranted.event,
  openTextDocument(options: { language?: string; content: string }) {
    fake.documents.push(options);
    return Promise.resolve(options);
  },
};

export const env = {
  clipboard: {
    writeText(text: string): Promise<void> {
      fake.clipboard = text;
      return Promise.resolve();
    },
    readText: () => Promise.resolve(fake.clipboard),
  },
};

export const lm = {
  registerMcpServerDefinitionProvider(id: string, provider: unknown): Disposable {
    fake.mcpProviders.set(id, provider);
    return new Disposable(() => fake.mcpProviders.delete(id));
  },
};

export const extensions = {
  getExtension: (id: string) => fake.extensions.get(id),
};

/** VS Code's l10n.t: the message, from fake.bundle when one is set, with its {0}-style placeholders filled in. */
export const l10n = {
  t(template: string, ...args: unknown[]): string {
    const values =
      args.length === 1 && args[0] !== null && typeof args[0] === "object" && !Array.isArray(args[0]) ? (args[0] as Record<string, unknown>) : args;
    const message = fake.bundle === undefined ? template : fake.bundle(template, args);
    return message.replace(/\{([^}]+)\}/g, (whole, key: string) => (key in values ? String((values as Record<string, unknown>)[key]) : whole));
  },
};
