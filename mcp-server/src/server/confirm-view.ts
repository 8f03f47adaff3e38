import { getUiCapability, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { ClientCapabilities } from "@modelcontextprotocol/server";

/** The MCP App view every guarded write tool links (`_meta.ui.resourceUri`): short, as each write tool's listing carries it. */
export const CONFIRM_VIEW_URI = "ui://custody/confirm";

/** The app-only tool the view's Confirm and Decline call: listed with visibility ["app"], so hosts never show it to the model. */
export const DECIDE_WRITE_TOOL = "decide_write";

/**
 * The key of a dry run's `_meta` that carries what the view confirms with (the confirmation token)
 * and what it shows besides the structured content (the exact body, the digest of the question):
 * `_meta` goes to the view, not the model.
 */
export const VIEW_META_KEY = "custody/confirm";

/** Whether a client declared the MCP Apps extension with the HTML views this server serves. */
export function showsViews(capabilities: ClientCapabilities | undefined): boolean {
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/** A guarded write tool's link to the view, as tools/list gives it to a client that shows views. */
export const VIEW_LINK = { ui: { resourceUri: CONFIRM_VIEW_URI } } as const;
