import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { ALL_COMMANDS } from "../../src/commands/all-commands.js";
// @ts-expect-error -- a build script in plain JavaScript, without declarations
import { l10nBundleText } from "../../scripts/l10n-bundle.mjs";
// @ts-expect-error -- a build script in plain JavaScript, without declarations
import { sha256, WALKTHROUGH_MEDIA, WALKTHROUGH_SHOTS } from "../../scripts/walkthrough-media.mjs";

interface Manifest {
  main: string;
  description: string;
  categories: string[];
  keywords: string[];
  icon: string;
  l10n: string;
  capabilities: { untrustedWorkspaces: { supported: boolean | "limited"; description?: string }; virtualWorkspaces: boolean };
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    configuration: { properties: Record<string, { scope?: string }> };
    mcpServerDefinitionProviders: { id: string; label: string }[];
    walkthroughs: { id: string; title: string; steps: { id: string; title: string; description: string; media: { image: string; altText: string } }[] }[];
  };
}

const extensionDir = join(import.meta.dirname, "..", "..");
const extensionFile = (path: string) => readFileSync(join(extensionDir, path), "utf8");
const raw = JSON.parse(extensionFile("package.json")) as Manifest;
const nls = JSON.parse(extensionFile("package.nls.json")) as Record<string, string>;
/** Every %key% of the manifest, as VS Code shows it in English. */
function localized<T>(value: T): T {
  if (typeof value === "string") return value.replace(/^%([^%]+)%$/, (whole, key: string) => nls[key] ?? whole) as T;
  if (Array.isArray(value)) return value.map(localized) as T;
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, localized(item)])) as T;
  return value;
}
const manifest = localized(raw);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}
/** The extension's sources but the Test-mode helpers, which no person sees. */
const sources = sourceFiles(join(extensionDir, "src"))
  .filter((file) => !file.includes(`${join("src", "testing")}`))
  .map((file) => ({ file, text: readFileSync(file, "utf8") }));

describe("the manifest and the code agree", () => {
  it("contributes exactly the commands the extension registers, in the Custody category", () => {
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    expect(contributed).toEqual(ALL_COMMANDS.map((command) => command.id).sort());
    for (const command of manifest.contributes.commands.filter((entry) => entry.command !== "custody.loadMore"))
      expect(command.category, command.command).toBe("Custody");
  });

  it("offers every command the issue lists in the palette", () => {
    const hidden = new Set((manifest.contributes.menus.commandPalette ?? []).filter((entry) => entry.when === "false").map((entry) => entry.command));
    const visible = manifest.contributes.commands.map((command) => command.command).filter((id) => !hidden.has(id));
    for (const id of [
      "custody.connect",
      "custody.disconnect",
      "custody.refresh",
      "custody.checkHealth",
      "custody.syncAccount",
      "custody.copyAddress",
      "custody.copyId",
      "custody.showJson",
      "custody.searchTransactions",
      "custody.createTransaction",
      "custody.approveTransaction",
      "custody.solana.createStake",
      "custody.solana.deactivateStake",
      "custody.solana.withdrawStake",
      "custody.solana.delegateStake",
      "custody.solana.splitStake",
      "custody.solana.splitDeactivateStake",
      "custody.polkadot.bondExtra",
      "custody.polkadot.unbond",
      "custody.polkadot.rebond",
      "custody.polkadot.withdrawUnbonded",
      "custody.polkadot.setPayee",
      "custody.ethereum.stake",
      "custody.registerOperator",
    ]) {
      expect(visible, id).toContain(id);
    }
  });

  it("names only existing commands in its menus", () => {
    const known = new Set(manifest.contributes.commands.map((command) => command.command));
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const entry of entries) expect(known.has(entry.command), `${menu}: ${entry.command}`).toBe(true);
    }
  });

  it("declares the container's four views, a welcome view, lazy activation and the MCP provider", () => {
    expect(manifest.contributes.views.custody?.map((view) => view.name)).toEqual(["Accounts", "Stakes", "Transactions", "Waiting for You"]);
    const welcome = manifest.contributes.viewsWelcome
      .filter((entry) => entry.view === "custody.accounts")
      .map((entry) => entry.contents)
      .join("\n");
    expect(welcome).toContain("command:custody.connect");
    expect(welcome).toContain("command:custody.startEmulator");
    expect(manifest.activationEvents).not.toContain("*");
    expect(manifest.activationEvents).not.toContain("onStartupFinished");
    expect(manifest.engines.vscode).toBe("^1.101.0");
    expect(manifest.contributes.mcpServerDefinitionProviders).toEqual([{ id: "custody.mcp", label: "Custody Workspace" }]);
    expect(raw.contributes.mcpServerDefinitionProviders[0]?.label).toBe("%mcp.label%");
    expect(manifest.main).toBe("./dist/extension.cjs");
  });

  it("keeps the address, the operator, the policy and the audit log out of reach of a folder's own settings", () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of ["custody.baseUrl", "custody.operator", "custody.policyFile", "custody.auditLog"])
      expect(properties[key]?.scope, key).toBe("application");
    expect(Object.keys(properties).sort()).toEqual([
      "custody.auditLog",
      "custody.baseUrl",
      "custody.operator",
      "custody.policyFile",
      "custody.refreshIntervalSeconds",
    ]);
  });
});

describe("VS Code's conventions", () => {
  it("takes every string a person reads in the manifest from package.nls.json, and package.nls.json holds no other", () => {
    const keys = [...JSON.stringify(raw).matchAll(/"%([^%"]+)%"/g)].map((match) => match[1] ?? "");
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.filter((key) => !(key in nls))).toEqual([]);
    expect(Object.keys(nls).filter((key) => !keys.includes(key))).toEqual([]);
    for (const command of raw.contributes.commands) expect(command.title, command.command).toMatch(/^%command\.[A-Za-z.]+\.title%$/);
    for (const properties of Object.values(raw.contributes.configuration.properties))
      expect((properties as { markdownDescription: string }).markdownDescription).toMatch(/^%config\./);
    expect(
      raw.contributes.walkthroughs[0]?.steps.every(
        (step) => step.title.startsWith("%") && step.description.startsWith("%") && step.media.altText.startsWith("%"),
      ),
    ).toBe(true);
  });

  it("passes no literal text a person reads to a notification, dialog, progress, quick pick, input box, tree or tooltip without vscode.l10n.t", () => {
    // A literal with words, once its ${...} parts are removed; the text the person reads then comes from l10n.t.
    const literal = String.raw`(\`(?:[^\`\\]|\\.)*\`|"(?:[^"\\]|\\.)*")`;
    const sinks = [
      String.raw`show(?:Information|Warning|Error)Message\(\s*` + literal,
      String.raw`notify\(\s*"(?:info|warning|error)",\s*` + literal,
      String.raw`#stop\(\s*"\w+",\s*` + literal,
      String.raw`#(?:failed|progress)\(\s*` + literal,
      String.raw`prompter\.(?:pick|confirm)\(\s*` + literal,
      String.raw`\b(?:title|prompt|placeHolder|tooltip|message|action|label|description):\s*` + literal,
      String.raw`\bitem\.(?:text|tooltip) = ` + literal,
      String.raw`\bstepTitle\(\s*` + literal,
      // The views: a node's label, a message in a tree, a tooltip's title and its rows' names, a refusal to pick.
      String.raw`new (?:MessageNode|GroupNode|BalanceLineNode|vscode\.TreeItem|NothingToPickError)\(\s*` + literal,
      String.raw`markdownTooltip\(\s*` + literal,
      String.raw`^\s*\[` + literal + ",",
      String.raw`\[\[` + literal + ",",
      String.raw`\bline\(\s*` + literal,
      String.raw`new LoadMoreNode\((?:[^,()]+(?:\([^()]*\))?,){2}\s*` + literal,
      // A quick pick's detail, an input's refusal, a message built for a notification.
      String.raw`^\s*detail:\s*` + literal,
      String.raw`\bvalidate: .*\?\s*` + literal,
      String.raw`\bconst message = ` + literal,
    ].map((sink) => new RegExp(sink, "gm"));
    const offenders: string[] = [];
    for (const { file, text } of sources) {
      for (const sink of sinks) {
        for (const match of text.matchAll(sink)) {
          const words = (match[1] ?? "").replace(/\$\{[^}]*\}/g, "");
          // Lower-case words: an API value (NORMAL, SEND) is shown as the service spells it.
          if (/[a-z]{2}/.test(words)) offenders.push(`${file.slice(extensionDir.length)}: ${match[0]}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("calls vscode.l10n.t with a literal message only, all of them in l10n/bundle.l10n.json", () => {
    const calls = sources.flatMap(({ file, text }) => [...text.matchAll(/\bl10n\.t\(\s*(.)/g)].map((match) => ({ file, first: match[1] })));
    expect(calls.length).toBeGreaterThan(80);
    // output/translate.ts hands l10n.t shared's templates, literals in shared/src the bundle's extraction reads.
    const passed = (file: string) => file.endsWith(join("src", "output", "translate.ts"));
    expect(calls.filter(({ file, first }) => first !== '"' && first !== "'" && !passed(file))).toEqual([]);
    expect(raw.l10n).toBe("./l10n");
    expect(extensionFile("l10n/bundle.l10n.json")).toBe(l10nBundleText());
  });

  it("has shared's text builders name each template as a literal, so the bundle's extraction finds every one", () => {
    const sharedSrc = join(extensionDir, "..", "shared", "src");
    const files = (readdirSync(sharedSrc, { recursive: true, encoding: "utf8" }) as string[]).filter((file) => file.endsWith(".ts"));
    const calls = files.flatMap((file) =>
      [...readFileSync(join(sharedSrc, file), "utf8").matchAll(/\b(?:t|localText)\(\s*([^\s])/g)].map((match) => ({ file, first: match[1] })),
    );
    expect(calls.length).toBeGreaterThan(150);
    // The passes-through: localText's own definition, renderText handing t a text's template, and a write's title
    // (the bundle's extraction takes the titles from kinds/registry-identities.ts).
    const passes = ["l10n/translate.ts", "l10n/translate.ts", "write-road/what-moves.ts"];
    const offenders = calls.filter(({ first }) => first !== '"' && first !== "'").map(({ file }) => file.split("\\").join("/"));
    expect(offenders.sort()).toEqual(passes.sort());
  });

  it("reads only in Restricted Mode, works in a virtual workspace, and says so", () => {
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe("limited");
    expect(manifest.capabilities.untrustedWorkspaces.description).toMatch(/only reads.*refused.*no MCP server/);
    expect(manifest.capabilities.virtualWorkspaces).toBe(true);
  });

  it("states that it collects no telemetry, in the manifest and the README, and lists fitting categories, keywords and a 128x128 PNG icon", () => {
    expect(manifest.description).toContain("Collects no telemetry.");
    expect(extensionFile("README.md")).toMatch(/## Telemetry\n\nNone\./);
    expect(manifest.categories).toContain("AI");
    expect(manifest.categories).not.toEqual(["Other"]);
    for (const keyword of ["custody", "mcp", "staking", "solana", "polkadot", "ethereum"]) expect(manifest.keywords).toContain(keyword);
    const icon = readFileSync(join(extensionDir, manifest.icon));
    expect(icon.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([128, 128]);
    expect(extensionFile(".vscodeignore")).toContain(`!${manifest.icon}`);
  });

  it("walks through connecting, the accounts, a dry run and the confirmation, with the screenshots the end-to-end run took", () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    expect(walkthrough?.steps.map((step) => step.title)).toEqual([
      "Connect to the demo or a workspace",
      "Look at the accounts",
      "A dry run before anything moves",
      "Confirm, and find it in Transactions",
    ]);
    const e2e = readFileSync(join(extensionDir, "test", "e2e", "code-server.e2e.test.ts"), "utf8");
    const recorded = JSON.parse(readFileSync(join(WALKTHROUGH_MEDIA, "sources.json"), "utf8")) as Record<string, { screenshot: string; sha256: string }>;
    const shots = WALKTHROUGH_SHOTS as Record<string, string>;
    for (const step of walkthrough?.steps ?? []) {
      const image = step.media.image.replace(/^media\/walkthrough\//, "");
      const shot = shots[image];
      // The end-to-end suite takes the screenshot, e2e.mjs copied it here and recorded its digest.
      expect(shot, image).toBeDefined();
      expect(e2e, shot).toContain(`screenshot("${shot}",`);
      expect(recorded[image]?.screenshot, image).toMatch(new RegExp(`^\\d+-${shot}\\.png$`));
      expect(sha256(join(extensionDir, step.media.image)), image).toBe(recorded[image]?.sha256);
    }
    expect(extensionFile(".vscodeignore")).toContain("!media/walkthrough/*.png");
  });
});
