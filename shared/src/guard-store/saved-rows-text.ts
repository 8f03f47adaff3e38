/**
 * One transaction of a saved window: its id, creation time (created_on as milliseconds since the epoch, parsed once when it was
 * read), intent key (operation and amount) and whether its status was terminal. Never the transaction: a row can only make a
 * transaction a candidate, which is read again by id before it is compared.
 */
export type SavedRow = [id: number, createdMs: number, key: string, terminal: boolean];

/** Longest intent key a row holds: a window with a longer one is not saved. */
const MAX_KEY_LENGTH = 200;

function isSavedRow(row: unknown): row is SavedRow {
  if (!Array.isArray(row) || row.length !== 4) return false;
  const [id, createdMs, key, terminal] = row as unknown[];
  return (
    Number.isSafeInteger(id) &&
    (id as number) > 0 &&
    Number.isSafeInteger(createdMs) &&
    typeof key === "string" &&
    key.length > 0 &&
    key.length <= MAX_KEY_LENGTH &&
    typeof terminal === "boolean"
  );
}

/** Rows of a sealed window that are not ones this guard saves (sealed by a build that saves them otherwise): the window is read whole. */
export class SavedRowsRefused extends Error {
  override readonly name = "SavedRowsRefused";
  /** The reason SAVED_WINDOW_REFUSED says, in the guard's words. */
  static readonly REASON = "its rows are not ones this guard saves";

  constructor() {
    super(`a saved window's rows are not ones this guard saves`);
  }
}

/**
 * A saved window's rows as the sealed JSON text of their array (newest first, ids falling), read only as far as a dry run needs:
 * a new process's first dry run asks for the rows of its write's intent key, found in the text without parsing the rest (parsing
 * 1,280 rows on that path cost more than the rest of the history read). The text is trusted only once its MAC verified (a
 * guard holding the key wrote it with JSON.stringify); `all()` still checks every row, and throws SavedRowsRefused when one is not
 * what a guard saves, as `withKey` does for a row it parses.
 */
export class SavedRowsText {
  #all: SavedRow[] | undefined;

  private constructor(
    readonly text: string,
    /** How many rows; the last one's creation time and the earliest of all (null: none), as the window's sealed head says. */
    readonly count: number,
    readonly lastCreatedMs: number | null,
    readonly earliestCreatedMs: number | null,
    /** The newest transaction the window's read saw: no row is newer. */
    readonly newestId: number,
  ) {}

  /** The text of rows to be saved (checked by areSavedRows before). */
  static of(rows: readonly SavedRow[]): SavedRowsText {
    const text = new SavedRowsText(JSON.stringify(rows), rows.length, rows.at(-1)?.[1] ?? null, earliestCreated(rows), rows[0]?.[0] ?? 0);
    text.#all = [...rows];
    return text;
  }

  /** Sealed text read back, with what the window's head says of it. */
  static sealed(text: string, head: { count: number; lastCreatedMs: number | null; earliestCreatedMs: number | null; newestId: number }): SavedRowsText {
    return new SavedRowsText(text, head.count, head.lastCreatedMs, head.earliestCreatedMs, head.newestId);
  }

  /**
   * The rows whose intent key is `key`, newest first. A row's key is the only string of the text, so `,"<key>",` (the key as JSON
   * writes it, between the row's time and its terminal flag) starts at such a row's key, or at the closing quote of a key that ends
   * with a comma: a quote inside a string is always escaped, and the key's own escapes end where its closing quote is. The latter
   * needs `<key>` to be what lies between two rows' keys (`,true],[5,100,`): a key that starts with a comma is looked for in the
   * rows read whole (a write's never does: an operation's name, a space, an amount). Each match's row is parsed alone.
   */
  withKey(key: string): SavedRow[] {
    if (this.#all !== undefined || key.startsWith(",")) return this.all().filter((row) => row[2] === key);
    const needle = `,${JSON.stringify(key)},`;
    const found: SavedRow[] = [];
    for (let at = this.text.indexOf(needle); at !== -1; at = this.text.indexOf(needle, at + needle.length)) {
      const start = this.text.lastIndexOf("[", at);
      const end = this.text.indexOf("]", at + needle.length);
      const row = rowIn(this.text.slice(start, end + 1));
      if (row === null || row[2] !== key || row[0] > this.newestId) throw new SavedRowsRefused();
      found.push(row);
    }
    return found;
  }

  /** Every row, newest first, checked: each a SavedRow, ids falling from at most the newest read, as many as the head says. */
  all(): SavedRow[] {
    if (this.#all !== undefined) return this.#all;
    const rows = rowsIn(this.text, this.newestId);
    if (rows === null || rows.length !== this.count || (rows.at(-1)?.[1] ?? null) !== this.lastCreatedMs || earliestCreated(rows) !== this.earliestCreatedMs)
      throw new SavedRowsRefused();
    this.#all = rows;
    return rows;
  }
}

function earliestCreated(rows: readonly SavedRow[]): number | null {
  let earliest: number | null = null;
  for (const [, createdMs] of rows) if (earliest === null || createdMs < earliest) earliest = createdMs;
  return earliest;
}

function rowIn(text: string): SavedRow | null {
  try {
    const row = JSON.parse(text) as unknown;
    return isSavedRow(row) ? row : null;
  } catch {
    return null;
  }
}

function rowsIn(text: string, newestId: number): SavedRow[] | null {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(rows) && areSavedRows(rows, newestId) ? rows : null;
}

/** Whether rows are ones a window holds: each a SavedRow, ids falling from at most the newest read (none twice). */
export function areSavedRows(rows: readonly unknown[], newestId: number): rows is SavedRow[] {
  let above = newestId + 1;
  for (const row of rows) {
    if (!isSavedRow(row) || row[0] >= above) return false;
    above = row[0];
  }
  return true;
}
