import type { ToolListing } from "./tool-listing.js";

/** Set by build.mjs in the bundle: the JSON of listAllTools(), generated when the bundle is built. */
declare const CUSTODY_TOOL_LISTINGS: string | undefined;

let listings: Promise<readonly ToolListing[]> | undefined;

/**
 * What tools/list shows of every tool. The bundle carries it, so that a start neither builds the
 * tools' zod schemas nor converts them to JSON Schema; from the sources (the tests) it is computed
 * on first use by the same function build.mjs runs.
 */
export function toolListings(): Promise<readonly ToolListing[]> {
  listings ??=
    typeof CUSTODY_TOOL_LISTINGS === "string"
      ? Promise.resolve(JSON.parse(CUSTODY_TOOL_LISTINGS) as ToolListing[])
      : import("./tool-listing.js").then((module) => module.listAllTools());
  return listings;
}
