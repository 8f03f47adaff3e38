import type * as vscode from "vscode";

/** Calls `refresh` every `seconds` (0: never); rescheduled whenever the interval changes. */
export class AutoRefresh implements vscode.Disposable {
  #timer: ReturnType<typeof setInterval> | undefined;
  #seconds = 0;

  constructor(private readonly refresh: () => void) {}

  get seconds(): number {
    return this.#seconds;
  }

  schedule(seconds: number): void {
    if (seconds === this.#seconds && (this.#timer !== undefined || seconds === 0)) return;
    this.stop();
    this.#seconds = seconds;
    if (seconds > 0) this.#timer = setInterval(this.refresh, seconds * 1000);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#seconds = 0;
  }

  dispose(): void {
    this.stop();
  }
}
