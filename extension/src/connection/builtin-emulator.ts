// The only module that imports the emulator package: it is bundled into the extension so the
// demo workspace runs inside the extension host, with nothing to install.
import { startEmulator } from "@custody/emulator";

export interface RunningEmulator {
  baseUrl: string;
  operators: string[];
  close(): Promise<void>;
}

/** The emulator on the demo workspace, in memory, on a free loopback port. */
export async function startBuiltinEmulator(log: (line: string) => void): Promise<RunningEmulator> {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: "demo", dataDir: null, log });
  return {
    baseUrl: emulator.baseUrl,
    operators: [...emulator.operators],
    close: () => emulator.close(),
  };
}
