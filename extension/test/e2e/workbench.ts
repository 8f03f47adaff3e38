import { join } from "node:path";
import type { Locator, Page } from "playwright-core";

/** What a person does in the VS Code workbench, through the page. */
export class Workbench {
  #shot = 0;

  constructor(
    readonly page: Page,
    private readonly resultsDir: string,
  ) {}

  /** A screenshot kept as a test artifact: NN-name.png; with `of`, only that part of the window (its top `maxHeight` pixels at most). */
  async screenshot(name: string, of?: { part: Locator; maxHeight?: number }): Promise<string> {
    this.#shot += 1;
    const path = join(this.resultsDir, `${String(this.#shot).padStart(2, "0")}-${name}.png`);
    const box = of === undefined ? null : await of.part.boundingBox();
    if (of !== undefined && box === null) throw new Error(`screenshot ${name}: the part to take is not shown`);
    const clip = box === null ? undefined : { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, of?.maxHeight ?? box.height) };
    await this.page.screenshot({ path, fullPage: false, clip });
    return path;
  }

  get quickInput(): Locator {
    return this.page.locator(".quick-input-widget");
  }

  /** Runs a command from the palette by its full title, e.g. "Custody: Connect to a Workspace". */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press("F1");
    const input = this.quickInput.locator("input");
    await input.waitFor({ state: "visible" });
    await input.fill(`>${title}`);
    const row = this.quickInput.locator(".monaco-list-row", { hasText: title }).first();
    await row.waitFor({ state: "visible" });
    await row.click();
  }

  /** Chooses the quick-pick item containing the text (typing it first to filter, when asked). */
  async pick(text: string, options: { filter?: boolean } = {}): Promise<void> {
    const input = this.quickInput.locator("input");
    await input.waitFor({ state: "visible" });
    if (options.filter !== false) await input.fill(text);
    const row = this.quickInput.locator(".monaco-list-row", { hasText: text }).first();
    await row.waitFor({ state: "visible" });
    await row.click();
  }

  /** Types into the open input box and presses Enter; returns the validation message shown for the text. */
  /**
   * Types an answer and presses Enter; with `echo`, first waits for the box's message to show it
   * (the input's validation runs after typing) and returns that message.
   */
  async answer(text: string, options: { title?: string; echo?: string } = {}): Promise<string> {
    if (options.title) await this.quickInput.locator(".quick-input-title", { hasText: options.title }).waitFor({ state: "visible" });
    const input = this.quickInput.locator("input");
    await input.waitFor({ state: "visible" });
    await input.fill(text);
    let shown = "";
    if (options.echo !== undefined) {
      const message = this.quickInput.locator(".quick-input-message", { hasText: options.echo }).first();
      await message.waitFor({ state: "visible" });
      shown = (await message.textContent()) ?? "";
    }
    await input.press("Enter");
    return shown;
  }

  /** The open modal dialog. */
  get dialog(): Locator {
    return this.page.locator(".monaco-dialog-box");
  }

  async dialogText(): Promise<string> {
    await this.dialog.waitFor({ state: "visible" });
    return (await this.dialog.innerText()).trim();
  }

  async clickDialogButton(label: string): Promise<void> {
    await this.dialog.getByRole("button", { name: label, exact: true }).click();
    await this.dialog.waitFor({ state: "hidden" });
  }

  /** Waits for a notification toast containing the text; returns its text. */
  async notification(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const toast = this.page.locator(".notification-toast", { hasText: text }).first();
    await toast.waitFor({ state: "visible", timeout: timeoutMs });
    return (await toast.innerText()).trim();
  }

  async clearNotifications(): Promise<void> {
    await this.runCommand("Notifications: Clear All Notifications");
  }

  /** The pane of a view in the side bar, by its title. */
  pane(title: string): Locator {
    return this.page.locator(".pane", { has: this.page.locator(".pane-header", { hasText: new RegExp(`^\\s*${title}`, "i") }) });
  }

  /** The rows of a view's tree that contain the text. */
  rows(title: string, text: string | RegExp): Locator {
    return this.pane(title).locator(".monaco-list-row", { hasText: text });
  }

  /**
   * The whole text of the active editor, line by line: the editor draws its lines in any DOM order
   * (each placed by its own `top`) with non-breaking spaces; fine for a document that fits the window.
   */
  async editorText(containing: string): Promise<string> {
    const lines = this.page.locator(".editor-group-container.active .editor-instance .view-lines");
    await lines.filter({ hasText: containing }).first().waitFor({ state: "visible", timeout: 30_000 });
    const drawn = await lines
      .first()
      .locator(".view-line")
      .evaluateAll((elements) =>
        (elements as unknown as { textContent: string | null; style: { top: string } }[]).map((line) => ({
          top: Number.parseInt(line.style.top, 10),
          text: line.textContent ?? "",
        })),
      );
    return drawn
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text.replace(/\u00a0/g, " "))
      .join("\n");
  }

  async paneText(title: string): Promise<string> {
    return (await this.pane(title).locator(".pane-body").innerText()).trim();
  }
}
