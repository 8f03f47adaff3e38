import { z } from "zod";
import { canonicalJson } from "../audit/canonical-json.js";
import { SEAL_KEY_ID, type AuditSealKey } from "../audit/seal-key.js";
import { INTENT_KEY_SCHEME } from "../kinds/kit/lost-answer-fields.js";
import { areSavedRows, SavedRowsText, type SavedRow } from "./saved-rows-text.js";

export type { SavedRow } from "./saved-rows-text.js";

// The intent keys' scheme is part of the format: a build that makes keys otherwise never takes another build's rows.
const FORMAT_NAME = "custody-known-window/";
const FORMAT = `${FORMAT_NAME}2 keys/${INTENT_KEY_SCHEME}`;
const MAC_DOMAIN = "custody known window";
/** A saved window is at most this long (1,280 rows of about 40 bytes: about 50 KB, with room to spare): a longer one is not read. */
export const SAVED_WINDOW_MAX_BYTES = 1024 * 1024;

/** Whose window: the workspace (the operator module's base URL, as one operator is shown it) and the account. */
export interface WindowPlace {
  workspace: string;
  account_id: number;
}

const Moment = z.string().min(1).max(64);

/**
 * What a process verified of an account's window (write-road/known-window.ts), as the guard's store keeps it: the window's own
 * line of the sealed text (its rows follow on a line of their own, SavedRowsText).
 */
const SavedWindowHead = z.strictObject({
  /** The newest transaction read (of any age): a later read stops where the list still holds it, same id and time. */
  newest: z.strictObject({ id: z.int().positive(), created_on: Moment }),
  /** The window's start the read reached back to, and where a capped read stopped (null: nothing missing back to `since`). */
  since: Moment,
  unread_before: Moment.nullable(),
  /** How many rows follow, the last one's creation time and the earliest of all (null: none): what a dry run needs of them unread. */
  count: z.int().nonnegative(),
  last_created_ms: z.int().nullable(),
  earliest_created_ms: z.int().nullable(),
});
type SavedWindowHead = z.infer<typeof SavedWindowHead>;

/** A window to save: its rows newest first. */
export type SavedWindow = Omit<SavedWindowHead, "count" | "last_created_ms" | "earliest_created_ms"> & { rows: SavedRow[] };
/** A window read back: its rows read as far as they are asked for. */
export type LoadedSavedWindow = Omit<SavedWindowHead, "count" | "last_created_ms" | "earliest_created_ms"> & { rows: SavedRowsText };

/** The JSON value of a text; undefined when it is not JSON (which no schema takes). */
function jsonIn(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The window a sealed text describes (its head's line, then its rows' line), or null when it is not one this guard saves. */
function savedWindowIn(text: string): LoadedSavedWindow | null {
  const lineEnd = text.indexOf("\n");
  if (lineEnd === -1) return null;
  const parsed = SavedWindowHead.safeParse(jsonIn(text.slice(0, lineEnd)));
  const rows = text.slice(lineEnd + 1);
  if (!parsed.success || !rows.startsWith("[") || !rows.endsWith("]")) return null;
  const { count, last_created_ms: lastCreatedMs, earliest_created_ms: earliestCreatedMs, ...head } = parsed.data;
  return { ...head, rows: SavedRowsText.sealed(rows, { count, lastCreatedMs, earliestCreatedMs, newestId: head.newest.id }) };
}

/** The sealed text's first line; the window's head and its rows follow, a line each, as the MAC covers them. */
const SealHeader = z.strictObject({
  format: z.literal(FORMAT),
  workspace: z.string(),
  account_id: z.int(),
  /** A key's id as AuditSealKey makes it: it is said in the reason a window is refused, so no other text is taken. */
  key_id: z.string().regex(SEAL_KEY_ID),
  mac: z.string(),
});

export type LoadedWindow = { found: "none" } | { found: "sealed"; window: LoadedSavedWindow } | { found: "untrusted"; reason: string };

/** Where a store keeps its sealed windows' texts, one per place, each replaced whole. */
export interface WindowShelf {
  /**
   * The text saved for the place; null when there is none; "too large" past SAVED_WINDOW_MAX_BYTES, "not a file" for what a
   * store's writes never leave there (a link, a pipe, a device): neither is read.
   */
  read(place: WindowPlace): Promise<string | null | "too large" | "not a file">;
  write(place: WindowPlace, text: string): Promise<void>;
}

/**
 * The accounts' windows of the workspace's history a process verified, kept in the guard's store so
 * that a new process on the store (a restart, another replica, the extension beside the MCP server)
 * starts from them and reads only what is new. Each is sealed under the audit seal key, bound to
 * the workspace, the account and the store (`store()`, its identity: null while it has none, and
 * then nothing is kept or used); one whose MAC does not verify is refused, never used, and its
 * reason said. Saving is queued and written after the current turn, off the dry run's path; the
 * latest window of a place replaces any queued before it; a write that fails is dropped (the next
 * process then reads the window whole).
 */
export class SavedWindows {
  readonly #queued = new Map<string, { place: WindowPlace; window: SavedWindow }>();
  #draining: Promise<void> | null = null;

  constructor(
    private readonly key: AuditSealKey,
    private readonly store: () => Promise<string | null>,
    private readonly shelf: WindowShelf,
    /** Told what failed and why (a store that cannot be reached); the store says it with the error's secrets removed. */
    private readonly failed: (what: string, error: unknown) => void = () => {},
  ) {}

  /**
   * The place's saved window, checked against its seal. A store that cannot be read is as if it held none (the window is read
   * whole). `found` is told as soon as there is a text, before it is checked and parsed: what the caller needs next can start.
   */
  async load(place: WindowPlace, found?: () => void): Promise<LoadedWindow> {
    let store: string | null;
    let text: Awaited<ReturnType<WindowShelf["read"]>>;
    try {
      store = await this.store();
      if (store === null) return { found: "none" };
      text = await this.shelf.read(place);
    } catch (error) {
      this.failed(`the saved window of account ${place.account_id} could not be read; its window is read whole`, error);
      return { found: "none" };
    }
    if (text === null) return { found: "none" };
    found?.();
    if (text === "too large") return { found: "untrusted", reason: `longer than ${SAVED_WINDOW_MAX_BYTES} bytes` };
    if (text === "not a file") return { found: "untrusted", reason: "not a file (a link, a pipe or a device put in its place)" };
    return this.#open(store, place, text);
  }

  /**
   * Queues the window to be sealed and saved after the current turn: the caller never waits for it. One the load would
   * refuse (a row whose intent key is longer than a row may hold: a service's unusually long type; rows not in falling id
   * order: a service that lists otherwise) is not saved, so that it is read whole next time rather than refused, or, its rows
   * read only when a dry run needs them all, stopping every dry run on the account then.
   */
  save(place: WindowPlace, window: SavedWindow): void {
    if (!areSavedRows(window.rows, window.newest.id)) return;
    this.#queued.set(JSON.stringify([place.workspace, place.account_id]), { place, window });
    this.#draining ??= this.#drain();
  }

  /** Resolves once every window queued so far is saved or dropped (a store's close, tests). */
  async settled(): Promise<void> {
    while (this.#draining !== null) await this.#draining;
  }

  async #drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      for (const [name, { place, window }] of this.#queued) {
        // Taken off before it is written: one queued again meanwhile is written again after (a Map iterates what is added).
        this.#queued.delete(name);
        try {
          const store = await this.store();
          if (store !== null) await this.shelf.write(place, this.#seal(store, place, window));
        } catch (error) {
          this.failed(`the window of account ${place.account_id} could not be saved; a new process reads it whole`, error);
        }
      }
    } finally {
      this.#draining = null;
    }
  }

  /** Three lines: the header (whose window, the key's id, the MAC), then the window's head and its rows, as the MAC covers them. */
  #seal(store: string, place: WindowPlace, window: SavedWindow): string {
    const { rows, ...head } = window;
    const saved = SavedRowsText.of(rows);
    const counts = { count: saved.count, last_created_ms: saved.lastCreatedMs, earliest_created_ms: saved.earliestCreatedMs };
    const text = `${JSON.stringify({ ...head, ...counts })}\n${saved.text}`;
    const mac = this.key.mac(MAC_DOMAIN, sealedContent(store, place, text));
    return `${JSON.stringify({ format: FORMAT, workspace: place.workspace, account_id: place.account_id, key_id: this.key.id, mac })}\n${text}`;
  }

  /** The MAC is checked over the window's text before it is parsed: what is parsed is what was sealed. */
  #open(store: string, place: WindowPlace, text: string): LoadedWindow {
    const lineEnd = text.indexOf("\n");
    const headerJson = jsonIn(lineEnd === -1 ? text : text.slice(0, lineEnd));
    // Saved by a build that writes windows otherwise (an earlier format, other intent keys): not used, not a tampering either.
    if (otherFormat(headerJson)) return { found: "none" };
    const parsed = SealHeader.safeParse(headerJson);
    if (!parsed.success) return { found: "untrusted", reason: "not a window this guard saves" };
    const header = parsed.data;
    if (header.workspace !== place.workspace || header.account_id !== place.account_id) return { found: "untrusted", reason: "saved for another account" };
    if (header.key_id !== this.key.id)
      return { found: "untrusted", reason: `sealed with another key (key id ${header.key_id}; this key's id is ${this.key.id})` };
    const windowText = lineEnd === -1 ? "" : text.slice(lineEnd + 1);
    if (!this.key.verifies(MAC_DOMAIN, sealedContent(store, place, windowText), header.mac))
      return { found: "untrusted", reason: "it does not match its MAC: edited, or saved by another store" };
    const window = savedWindowIn(windowText);
    return window === null ? { found: "untrusted", reason: "not a window this guard saves" } : { found: "sealed", window };
  }
}

function otherFormat(header: unknown): boolean {
  const format = typeof header === "object" && header !== null ? (header as { format?: unknown }).format : undefined;
  return typeof format === "string" && format.startsWith(FORMAT_NAME) && format !== FORMAT;
}

/** What the MAC covers: the store, the workspace and the account the window is of (one line: JSON has no raw line break), then its text. */
function sealedContent(store: string, place: WindowPlace, windowText: string): string {
  return `${canonicalJson({ format: FORMAT, store, workspace: place.workspace, account_id: place.account_id })}\n${windowText}`;
}
