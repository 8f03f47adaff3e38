import { startEmulator } from "@custody/emulator";
import { newLocalSecret } from "@custody/shared";

export interface EmbeddedWorkspace {
  baseUrl: string;
  /** The first ACTIVE demo operator. */
  operator: string;
  operators: readonly string[];
  /** The emulator's key, made for this start: every request must carry it (X-Emulator-Key), so only this process reaches it. */
  key: string;
  close(): Promise<void>;
}

/** The emulator in-process, in memory, on the demo workspace: the default when no base URL is configured. */
export async function startEmbeddedWorkspace(log: (line: string) => void): Promise<EmbeddedWorkspace> {
  const key = newLocalSecret();
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, dataDir: null, seed: "demo", key, log: (line) => log(`emulator: ${line}`) });
  const operator = emulator.operators[0];
  if (operator === undefined) {
    await emulator.close();
    throw new Error("the embedded emulator's demo workspace has no ACTIVE operator");
  }
  return { baseUrl: emulator.baseUrl, operator, operators: emulator.operators, key, close: () => emulator.close() };
}
