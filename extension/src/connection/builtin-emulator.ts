// The only module that imports the emulator package: it is bundled into the extension so the
// demo workspace runs inside the extension host, with nothing to install.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { newLocalSecret } from "@custody/shared";
import type { EmulatorKey } from "./connection-state.js";

export interface RunningEmulator {
  baseUrl: string;
  operators: string[];
  key: EmulatorKey;
  close(): Promise<void>;
}

/**
 * The emulator on the demo workspace, in memory, on a free loopback port, with a fresh key that
 * every request must carry; the key is also written to a file of its own in keyDir (named for
 * the port, since every window runs its own emulator), removed when the emulator stops.
 */
export async function startBuiltinEmulator(log: (line: string) => void, keyDir: string): Promise<RunningEmulator> {
  const value = newLocalSecret();
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: "demo", dataDir: null, key: value, log });
  const file = join(keyDir, `emulator-${new URL(emulator.baseUrl).port}.key`);
  try {
    mkdirSync(keyDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, value, { mode: 0o600 });
    chmodSync(file, 0o600);
  } catch (error) {
    await emulator.close();
    throw error;
  }
  return {
    baseUrl: emulator.baseUrl,
    operators: [...emulator.operators],
    key: { value, file },
    close: async () => {
      await emulator.close();
      rmSync(file, { force: true });
    },
  };
}
