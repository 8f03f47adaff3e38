import { toolPermission, writeToolQuery, WRITE_TOOL_IDENTITIES, type Person, type Policy } from "@custody/shared";
import { registerAppResource, RESOURCE_MIME_TYPE, type McpUiAppResourceConfig } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer, Resource } from "@modelcontextprotocol/server";
import { CONFIRM_VIEW_URI } from "../server/confirm-view.js";

/**
 * The view's content security policy as MCP Apps hosts read it: no domain of any kind (no network,
 * no resources from elsewhere, no frames), which hosts apply as their most restrictive default. The
 * document carries its own policy as well (confirm-view.mjs), so a host that ignores this still runs
 * nothing but the view's own script.
 */
const VIEW_UI_META = { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } satisfies NonNullable<
  McpUiAppResourceConfig["_meta"]
>["ui"];

/** Whether the policy lets this person run any guarded write: the view is there only then (a reader has nothing to confirm). */
export function confirmsWrites(policy: Policy, person: Person | null): boolean {
  // The identities alone: a start must not load the writes' definitions.
  return WRITE_TOOL_IDENTITIES.some((identity) => toolPermission(policy, writeToolQuery(identity), person).allowed);
}

/**
 * The confirmation view, `ui://custody/confirm`: the HTML every guarded write tool links, for
 * clients that show views. Returns its resources/list entry, as McpServer would list it.
 */
export function registerConfirmView(server: McpServer): Resource {
  const registered = registerAppResource(
    server,
    "Write confirmation",
    CONFIRM_VIEW_URI,
    { description: "Shows a write's dry run to the person, with Confirm and Decline.", _meta: { ui: VIEW_UI_META } },
    async () => {
      const { confirmViewHtml } = await import("./view-html.js");
      return { contents: [{ uri: CONFIRM_VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: await confirmViewHtml(), _meta: { ui: VIEW_UI_META } }] };
    },
  );
  return { uri: CONFIRM_VIEW_URI, name: registered.name, ...registered.metadata };
}
