import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";

/** The longest cursor read: the ones this server gives are under 30 characters. */
export const MAX_LIST_CURSOR_LENGTH = 64;
/** A page past this is no workspace's (500 million accounts at 500 a page). */
const MAX_LISTED_PAGE = 1_000_000;
const CURSOR_VERSION = 1;

/** What a cursor carries: the service page of accounts the next resources/list answer lists. Page 1 has no cursor. */
const CursorBody = z.strictObject({ v: z.literal(CURSOR_VERSION), page: z.int().min(2).max(MAX_LISTED_PAGE) });

/**
 * The resources/list cursor of a page: base64url of a small versioned JSON. Opaque to clients, not
 * sealed: it grants nothing, since every page it can name is one the same request without it could
 * reach by paging (docs/spec-decisions.md).
 */
export function listCursorOf(page: number): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, page })).toString("base64url");
}

function invalidCursor(rule: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: cursor ${rule}`);
}

/**
 * The page a resources/list request asks for: 1 without a cursor (or an empty one); else the page of a cursor this
 * server gives, byte for byte (length and alphabet checked before decoding). Any other is refused
 * with -32602, as MCP asks of an invalid cursor; the cursor itself is not repeated.
 */
export function pageOfListCursor(cursor: string | undefined): number {
  // An empty cursor is none, as the SDK read any cursor before the listing was paged.
  if (cursor === undefined || cursor === "") return 1;
  if (cursor.length > MAX_LIST_CURSOR_LENGTH) throw invalidCursor(`must be at most ${MAX_LIST_CURSOR_LENGTH} characters, got ${cursor.length}`);
  const unreadable = invalidCursor("must be a nextCursor of this server's resources/list, passed back unchanged");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw unreadable;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw unreadable;
  }
  const parsed = CursorBody.safeParse(body);
  if (!parsed.success || listCursorOf(parsed.data.page) !== cursor) throw unreadable;
  return parsed.data.page;
}
