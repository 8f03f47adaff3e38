import type * as vscode from "vscode";
import type { RunningEmulator } from "./builtin-emulator.js";

/** Starts the built-in emulator at most once per window and stops it with the extension. */
export class EmulatorSession implements vscode.Disposable {
  #running: Promise<RunningEmulator> | undefined;

  /** keyDir: where the running emulator's key file is written (the extension's global storage). */
  constructor(
    private readonly log: (line: string) => void,
    private readonly keyDir: string,
  ) {}

  get started(): boolean {
    return this.#running !== undefined;
  }

  start(): Promise<RunningEmulator> {
    if (!this.#running) {
      // Loaded on first use: activation stays fast when the emulator is never started.
      this.#running = import("./builtin-emulator.js").then((module) => module.startBuiltinEmulator(this.log, this.keyDir));
      this.#running.catch(() => {
        this.#running = undefined;
      });
    }
    return this.#running;
  }

  async stop(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    if (running) await (await running).close();
  }

  dispose(): void {
    void this.stop().catch(() => undefined);
  }
}
