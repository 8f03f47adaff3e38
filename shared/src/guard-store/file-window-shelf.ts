import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { replaceWhole } from "../files/whole-file.js";
import { SAVED_WINDOW_MAX_BYTES, type WindowPlace, type WindowShelf } from "./saved-windows.js";

/**
 * The file store's saved windows: one small file per account in `<log>.windows/`, named by a digest
 * of the workspace and the account, written whole and renamed into place (a reader finds the old
 * window or the new one, never part of either; of two processes saving together the last rename
 * wins). A dry run reads only its account's file: the cost does not grow with the accounts kept.
 * Not synced: one lost with a power loss only makes the next process read the window whole.
 */
export class FileWindowShelf implements WindowShelf {
  constructor(private readonly dir: string) {}

  async read(place: WindowPlace): Promise<string | null | "too large" | "not a file"> {
    let fd: number;
    try {
      // Only a file this guard wrote: a link at the name fails to open (ELOOP; O_NOFOLLOW is undefined on Windows), and a pipe
      // opens without waiting for a writer, which would block the process whole; neither is read (a device, read, never ends).
      fd = openSync(this.#file(place), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return null;
      if (code === "ELOOP") return "not a file";
      throw error;
    }
    try {
      const status = fstatSync(fd);
      if (!status.isFile()) return "not a file";
      return status.size > SAVED_WINDOW_MAX_BYTES ? "too large" : readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  }

  async write(place: WindowPlace, text: string): Promise<void> {
    // Readable by the store's owner only, as the seal is: what the treasury's accounts moved, and when.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    replaceWhole(this.#file(place), text, { mode: 0o600 });
  }

  #file(place: WindowPlace): string {
    return join(
      this.dir,
      `${createHash("sha256")
        .update(JSON.stringify([place.workspace, place.account_id]))
        .digest("hex")}.json`,
    );
  }
}
