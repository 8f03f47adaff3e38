import { toolListings } from "../tools/tool-catalog.js";
import { CUSTODY_SCOPES } from "../oauth/custody-scopes.js";

export interface Challenge {
  error?: "invalid_token" | "insufficient_scope";
  description?: string;
  /** The resource's metadata document (RFC 9728 section 5.1). */
  resourceMetadata: string;
}

/** An RFC 7235 quoted-string: printable ASCII, with `"` and `\` escaped. */
function quoted(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]/g, "?").replace(/["\\]/g, "\\$&")}"`;
}

/**
 * The `WWW-Authenticate` value of a refusal (RFC 6750 section 3, RFC 9728 section 5.1): where the
 * resource's metadata is, the scopes a client should ask for, and the error when a token was sent.
 */
export function bearerChallenge(challenge: Challenge): string {
  const parts = [
    ...(challenge.error === undefined ? [] : [`error=${quoted(challenge.error)}`]),
    ...(challenge.description === undefined ? [] : [`error_description=${quoted(challenge.description)}`]),
    `scope=${quoted(CUSTODY_SCOPES.join(" "))}`,
    `resource_metadata=${quoted(challenge.resourceMetadata)}`,
  ];
  return `Bearer ${parts.join(", ")}`;
}

/** The tool a JSON-RPC message calls ("" for a tools/call without a name), or null. */
function calledTool(message: unknown): string | null {
  if (typeof message !== "object" || message === null || (message as { method?: unknown }).method !== "tools/call") return null;
  const name = (message as { params?: { name?: unknown } }).params?.name;
  return typeof name === "string" ? name : "";
}

/**
 * What a request body (one JSON-RPC message or a batch) calls that may change something, as the
 * refusal names it: each tool whose listing does not say readOnlyHint true, and "a tool this server
 * does not list" for any other name (fail closed: a read-only token gets no call through on a
 * name the server does not know). Empty when it calls only read-only tools.
 */
export async function writeCallsIn(body: unknown): Promise<string[]> {
  const called = (Array.isArray(body) ? body : [body]).map(calledTool).filter((name) => name !== null);
  if (called.length === 0) return [];
  const listings = (await toolListings()).map((listing) => listing.tool);
  const readOnly = new Set(listings.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name));
  const known = new Set(listings.map((tool) => tool.name));
  return [...new Set(called.filter((name) => !readOnly.has(name)).map((name) => (known.has(name) ? name : "a tool this server does not list")))];
}
