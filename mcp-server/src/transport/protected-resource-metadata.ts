import type { OAuthProtectedResourceMetadata } from "@modelcontextprotocol/server";
import type { OAuthSettings } from "../config/server-config.js";
import { SERVER_NAME } from "../server/server-identity.js";
import { CUSTODY_SCOPES } from "../oauth/custody-scopes.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * RFC 9728 section 3.1: the metadata of a resource with a path is at the well-known name inserted
 * before that path (https://custody.example.com/mcp: /.well-known/oauth-protected-resource/mcp).
 * Written here because the SDK's helper lives in a module that loads express.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}`;
}

/** The paths this server answers the metadata on: the resource's own, and the bare well-known name for clients that ask there. */
export function protectedResourceMetadataPaths(resource: string): Set<string> {
  return new Set([WELL_KNOWN, new URL(protectedResourceMetadataUrl(resource)).pathname]);
}

/** What a client learns before signing in: the resource, whose tokens it takes, and the scopes. */
export function protectedResourceMetadata(settings: OAuthSettings): OAuthProtectedResourceMetadata {
  return {
    resource: settings.resource,
    authorization_servers: [settings.issuer],
    scopes_supported: [...CUSTODY_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: `${SERVER_NAME} (custody workspace)`,
  };
}
