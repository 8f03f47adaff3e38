import type { ToolHints } from "./tool-definition.js";

/** Reads: change nothing, same answer for the same state, inside the workspace. */
export const READ_HINTS: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Guarded writes: they move or commit funds on a public network. */
export const WRITE_HINTS: ToolHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
