import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { discoverIssuer, metadataLocations } from "../src/oauth/authorization-server-metadata.js";
import { grantedScopes } from "../src/oauth/custody-scopes.js";
import { IssuerKeys, KeysUnavailable } from "../src/oauth/issuer-keys.js";
import { protectedResourceMetadataPaths, protectedResourceMetadataUrl } from "../src/transport/protected-resource-metadata.js";
import { bearerChallenge, writeCallsIn } from "../src/transport/scope-challenge.js";

describe("the well-known locations", () => {
  it("insert the protected resource metadata's name before the resource's path (RFC 9728)", () => {
    expect(protectedResourceMetadataUrl("https://custody.example.com/mcp")).toBe("https://custody.example.com/.well-known/oauth-protected-resource/mcp");
    expect(protectedResourceMetadataUrl("https://custody.example.com:8443/team/mcp")).toBe(
      "https://custody.example.com:8443/.well-known/oauth-protected-resource/team/mcp",
    );
    expect(protectedResourceMetadataUrl("https://custody.example.com/")).toBe("https://custody.example.com/.well-known/oauth-protected-resource");
    expect([...protectedResourceMetadataPaths("https://custody.example.com/mcp")]).toEqual([
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]);
  });

  it("look for an issuer's metadata by RFC 8414, then OpenID Connect Discovery", () => {
    expect(metadataLocations("https://login.example.com/realms/custody")).toEqual([
      "https://login.example.com/.well-known/oauth-authorization-server/realms/custody",
      "https://login.example.com/realms/custody/.well-known/openid-configuration",
    ]);
    expect(metadataLocations("https://login.example.com")).toEqual([
      "https://login.example.com/.well-known/oauth-authorization-server",
      "https://login.example.com/.well-known/openid-configuration",
    ]);
  });
});

describe("scopes and challenges", () => {
  it("reads scope as a string and scp as a list or a string", () => {
    expect(grantedScopes({ scope: "openid custody:read" })).toEqual(["openid", "custody:read"]);
    expect(grantedScopes({ scp: ["custody:read", "custody:write"] })).toEqual(["custody:read", "custody:write"]);
    expect(grantedScopes({ scp: "custody:write custody:read" })).toEqual(["custody:write", "custody:read"]);
    expect(grantedScopes({ scope: 42 })).toEqual([]);
  });

  it("writes an RFC 6750 challenge whose quoted strings cannot be broken out of", () => {
    expect(bearerChallenge({ resourceMetadata: "https://x/.well-known/oauth-protected-resource/mcp" })).toBe(
      'Bearer scope="custody:read custody:write", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"',
    );
    expect(bearerChallenge({ resourceMetadata: "m", error: "invalid_token", description: 'a "quoted" \\ text\nwith a line' })).toBe(
      'Bearer error="invalid_token", error_description="a \\"quoted\\" \\\\ text?with a line", scope="custody:read custody:write", resource_metadata="m"',
    );
  });

  it("finds the calls that need custody:write, in a batch too, and treats a name that is no tool as one", async () => {
    const call = (name: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });
    expect(await writeCallsIn(call("list_accounts"))).toEqual([]);
    expect(await writeCallsIn({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toEqual([]);
    expect(await writeCallsIn(undefined)).toEqual([]);
    expect(await writeCallsIn([call("get_account"), call("create_transaction"), call("sync_account")])).toEqual(["create_transaction", "sync_account"]);
    expect(await writeCallsIn(call("no_such_tool"))).toEqual(["a tool this server does not list"]);
    expect(await writeCallsIn(call(7))).toEqual(["a tool this server does not list"]);
  });
});

describe("the issuer's metadata", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(answer: (path: string) => { status: number; body: string }): Promise<string> {
    server = createServer((req, res) => {
      const { status, body } = answer(req.url ?? "/");
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(body);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("falls back to OpenID Connect Discovery and takes the jwks_uri of a document naming the issuer exactly", async () => {
    const issuer = await serve((path) =>
      path === "/.well-known/openid-configuration"
        ? { status: 200, body: JSON.stringify({ issuer: `http://127.0.0.1:${(server?.address() as AddressInfo).port}`, jwks_uri: "http://127.0.0.1:1/jwks" }) }
        : { status: 404, body: "{}" },
    );
    expect((await discoverIssuer(issuer)).jwksUri.href).toBe("http://127.0.0.1:1/jwks");
  });

  it("refuses a document naming another issuer, a jwks_uri over plain http off loopback, and an answer too large", async () => {
    let document: unknown = {};
    const issuer = await serve(() => ({ status: 200, body: typeof document === "string" ? document : JSON.stringify(document) }));
    document = { issuer: "https://evil.example.com", jwks_uri: `${issuer}/jwks` };
    await expect(discoverIssuer(issuer)).rejects.toThrow(/its issuer is not http:\/\/127\.0\.0\.1:\d+ \(CUSTODY_AUTH_ISSUER\) exactly/);
    document = { issuer, jwks_uri: "http://keys.example.com/jwks" };
    await expect(discoverIssuer(issuer)).rejects.toThrow(/jwks_uri must be https/);
    document = JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, padding: "x".repeat(300 * 1024) });
    await expect(discoverIssuer(issuer)).rejects.toThrow(/more than the 262144 bytes accepted|longer than the 262144 bytes/);
  });

  it("is tried again only after a backoff that doubles, and says so", async () => {
    let now = 1_000_000;
    const logged: string[] = [];
    const closed = await serve(() => ({ status: 200, body: "{}" }));
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const keys = new IssuerKeys(
      closed,
      (line) => logged.push(line),
      () => now,
    );
    await expect(keys.keys()).rejects.toThrow(KeysUnavailable);
    await expect(keys.keys()).rejects.toThrow(/next attempt in 1 s/);
    now += 1_000;
    await expect(keys.keys()).rejects.toThrow(/retry in 2 s/);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/ECONNREFUSED.*tokens are answered 503/);
  });
});
