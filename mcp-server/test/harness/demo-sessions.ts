import type { RunningEmulator } from "@custody/emulator";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { resetWorkspace } from "./control-plane.js";
import { DEMO } from "./demo-workspace.js";
import { connectHarness, startTestEmulator, type Harness } from "./mcp-harness.js";

export interface DemoSessions {
  readonly emulator: RunningEmulator;
  /** A session acting as treasury-bot. */
  readonly treasury: Harness;
  /** A session acting as staking-bot. */
  readonly staking: Harness;
}

function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is set up by useDemoSessions' hooks: use it inside a test`);
  return value;
}

/**
 * The hooks of a file whose tests each start on a fresh demo workspace: one emulator for the
 * file, and before each test the workspace reset and a session for treasury-bot and for staking-bot.
 */
export function useDemoSessions(): DemoSessions {
  let emulator: RunningEmulator | undefined;
  let treasury: Harness | undefined;
  let staking: Harness | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    await resetWorkspace(present(emulator, "the emulator"));
    treasury = await connectHarness(present(emulator, "the emulator"), { operator: DEMO.treasuryBot });
    staking = await connectHarness(present(emulator, "the emulator"), { operator: DEMO.stakingBot });
  });
  afterEach(async () => {
    await treasury?.close();
    await staking?.close();
  });
  return {
    get emulator() {
      return present(emulator, "the emulator");
    },
    get treasury() {
      return present(treasury, "the treasury-bot session");
    },
    get staking() {
      return present(staking, "the staking-bot session");
    },
  };
}
