import type { RunningEmulator } from "@custody/emulator";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startHeaderRecorder, type HeaderRecorder } from "../../../test/support/header-recorder.js";
import { resetWorkspace } from "./control-plane.js";
import { accountNamed, DEMO } from "./demo-workspace.js";
import { startTestEmulator, testContext, type HarnessOptions, type TestContext } from "./mcp-harness.js";
import { launchPageBrowser, transactionPosts } from "./page-browser.js";

export interface RecordedWorkspaceOptions {
  /** The person-mode context's options besides its policy and the service's address (a TTL, an opener). */
  context?: Omit<HarnessOptions, "policy" | "baseUrl">;
  /** The folder under test-results/ of a headless Chromium's screenshots; without it no browser is started. */
  browser?: string;
}

export interface RecordedWorkspace {
  emulator: RunningEmulator;
  /** In front of the emulator: every request the server under test made to the service. */
  recorder: HeaderRecorder;
  /** A person-mode context on the workspace, through the recorder. */
  context: TestContext;
  /** Debian's Chromium, when the options name its screenshots' folder. */
  browser: Browser;
  /** The folder its screenshots go to. */
  shots: string;
  /** Another context on the same workspace, through the recorder (token mode unless the options' policy says otherwise). */
  contextWith(options?: HarnessOptions): TestContext;
  /** A send from the demo's SOL treasury to its cold wallet, of an amount no earlier call of the file used. */
  sendArgs(note: string): Promise<{ account: string; recipient: string; amount: string; unit: string; note: string }>;
  /** The transactions the custody service was asked to create, counted at its door. */
  sends(): number;
}

/**
 * For a file's tests: the emulator reset to the demo workspace, a header recorder in front of it, a
 * person-mode context through the recorder and, when asked, Chromium; started before the tests and
 * closed after them (after the file's own afterAll hooks, which close what they started on them).
 * Read its fields inside the tests or hooks.
 */
export function recordedWorkspace(options: RecordedWorkspaceOptions = {}): RecordedWorkspace {
  let sent = 0;
  const workspace = {
    contextWith: (harness: HarnessOptions = {}) => testContext(workspace.emulator, { ...harness, baseUrl: workspace.recorder.baseUrl }),
    sendArgs: async (note: string) => ({
      account: DEMO.solTreasury,
      recipient: (await accountNamed(workspace.emulator, DEMO.solCold)).address,
      amount: `0.0${(sent += 1).toString().padStart(2, "0")}3`,
      unit: "SOL",
      note,
    }),
    sends: () => transactionPosts(workspace.recorder),
  } as RecordedWorkspace;
  beforeAll(async () => {
    if (options.browser !== undefined) ({ browser: workspace.browser, shots: workspace.shots } = await launchPageBrowser(options.browser));
    workspace.emulator = await startTestEmulator();
    await resetWorkspace(workspace.emulator);
    workspace.recorder = await startHeaderRecorder(workspace.emulator.baseUrl);
    workspace.context = workspace.contextWith({ ...options.context, policy: { confirmation: "person" } });
  }, 900_000);
  afterAll(async () => {
    await workspace.browser?.close();
    await workspace.context?.ctx.pages.close();
    await workspace.recorder?.close();
    await workspace.emulator?.close();
  });
  return workspace;
}
