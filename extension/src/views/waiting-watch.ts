import { watch, type FSWatcher } from "node:fs";
import type * as vscode from "vscode";

/** How often the list is read again when no change was seen: a watcher can miss changes on some file systems. */
const POLL_MS = 15_000;
/** Changes that come together (a dry run writes several entries) are read once. */
const SETTLE_MS = 100;

/**
 * Calls `changed` when the writes waiting for the person may have changed: an entry of the store's
 * waiting directory was written or removed (another process made or decided one), the soonest
 * expiry passed, or a while went by.
 */
export class WaitingWatch implements vscode.Disposable {
  #watcher: FSWatcher | undefined;
  #directory: string | undefined;
  #settle: NodeJS.Timeout | undefined;
  #expiry: NodeJS.Timeout | undefined;
  readonly #poll: NodeJS.Timeout;

  constructor(private readonly changed: () => void) {
    this.#poll = setInterval(changed, POLL_MS);
    this.#poll.unref();
  }

  /** Watches this directory (once; another replaces it). */
  watchDirectory(directory: string): void {
    if (this.#directory === directory) return;
    this.#watcher?.close();
    this.#directory = directory;
    try {
      this.#watcher = watch(directory, () => {
        clearTimeout(this.#settle);
        this.#settle = setTimeout(this.changed, SETTLE_MS);
      });
      this.#watcher.on("error", () => this.#watcher?.close());
    } catch {
      // The poll still reads it.
      this.#watcher = undefined;
    }
  }

  /** Reads again just after the soonest of these expiries (ms since the epoch), when it drops off the list. */
  expiring(expiries: readonly number[]): void {
    clearTimeout(this.#expiry);
    if (expiries.length === 0) return;
    this.#expiry = setTimeout(this.changed, Math.max(0, Math.min(...expiries) - Date.now()) + SETTLE_MS);
    this.#expiry.unref();
  }

  dispose(): void {
    this.#watcher?.close();
    clearTimeout(this.#settle);
    clearTimeout(this.#expiry);
    clearInterval(this.#poll);
  }
}
