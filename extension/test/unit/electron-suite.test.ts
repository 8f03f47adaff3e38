import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { run } from "../electron/suite.js";
import { ExtensionMode, fake } from "./support/fake-vscode.js";
import { startHarness, type Harness } from "./support/extension-harness.js";

// The test-electron suite needs a VS Code executable; its checks and the Test-mode API it
// drives are exercised here against the fake vscode, so the suite is known to be sound.
describe("the test-electron suite", () => {
  let harness: Harness;
  afterEach(async () => {
    delete process.env.CUSTODY_TEST_BASE_URL;
    await harness.close();
  });

  it("passes against the extension in Test mode", async () => {
    harness = await startHarness({ mode: ExtensionMode.Test });
    process.env.CUSTODY_TEST_BASE_URL = harness.baseUrl;
    await run();
    // Every question was answered from the script: no modal reached the window.
    expect(fake.messages.filter((message) => message.modal)).toEqual([]);
  });

  it("exposes no scripted answers outside Test mode", async () => {
    harness = await startHarness();
    const extension = fake.extensions.get("custody-toolkit.custody-workspace");
    expect(await extension?.activate()).toEqual({});
  });
});
