import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { isRefusedFile, readOwnText } from "../files/own-file.js";
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
    // Only a file this guard wrote: a link, a pipe or a device at the name is not read (none holds a window).
    const text = readOwnText(this.#file(place), { what: "saved window", maxBytes: SAVED_WINDOW_MAX_BYTES });
    if (!isRefusedFile(text)) return text;
    return text.refused === "too large" ? "too large" : "not a file";
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
