import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { readCommand, startContext, startHttpServer, tokenFromText, type RunningHttpServer, type ServerConfig, type StartedContext } from "@custody/mcp-server";
import { CustodyClient } from "@custody/shared";
import { OAuthProtectedResourceMetadataSchema } from "@modelcontextprotocol/core";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { decodeJwt, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { freePort } from "../support/free-port.js";
import { startHeaderRecorder, type HeaderRecorder } from "../support/header-recorder.js";

type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

const OPERATOR = "treasury-bot";
const PROTOCOL_VERSION = "2025-11-25";

let authorization: AuthorizationServer;
let otherIssuer: AuthorizationServer;
let emulator: RunningEmulator;
let recorder: HeaderRecorder;
let started: StartedContext;
let server: RunningHttpServer;
let resource: string;
let metadataUrl: string;
let recipient: string;
let auditLog: string;
const logged: string[] = [];
/** Every access token the tests obtained or made: none may reach the custody service or a log line. */
const issued: string[] = [];
const clients: Client[] = [];

const remember = (token: string) => {
  issued.push(token);
  return token;
};

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
  authorization = await startAuthorizationServer(await freePort(), resource);
  otherIssuer = await startAuthorizationServer(await freePort(), resource);
  emulator = await startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10, log: () => {} });
  recorder = await startHeaderRecorder(emulator.baseUrl);
  const work = mkdtempSync(join(tmpdir(), "custody-oauth-"));
  auditLog = join(work, "audit.jsonl");
  const command = readCommand(
    [
      "--http",
      "--port",
      String(port),
      "--auth-issuer",
      authorization.issuer,
      "--public-url",
      resource,
      "--base-url",
      recorder.baseUrl,
      "--operator",
      OPERATOR,
      "--audit-log",
      auditLog,
    ],
    {},
  );
  const config = (command as { config: ServerConfig }).config;
  started = await startContext(config, (line) => logged.push(line));
  server = await startHttpServer(started.ctx, config.http!, (line) => logged.push(line));
  const accounts = await new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR }).listAllAccounts();
  recipient = accounts.find((account) => account.name === "sol-cold")?.address ?? "";
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await server?.close();
  await started?.close();
  await recorder?.close();
  await emulator?.close();
  await authorization?.stop();
  await otherIssuer?.stop();
});

async function connect(token: string): Promise<{ client: Client; sessionId: string }> {
  const client = new Client({ name: "oauth-test", version: "0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  clients.push(client);
  return { client, sessionId: transport.sessionId ?? "" };
}

async function callText(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  return (result.content as { text?: string }[]).map((item) => item.text ?? "").join("\n");
}

/** A raw JSON-RPC POST, so that a test sees the status and headers a client library would hide. */
async function post(token: string | null, body: unknown, sessionId?: string): Promise<{ status: number; challenge: string; body: string }> {
  const response = await fetch(resource, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": PROTOCOL_VERSION,
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
      ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "", body: await response.text() };
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};
const ping = { jsonrpc: "2.0", id: 7, method: "ping" };
const sendArgs = () => ({ account: "sol-treasury", recipient, amount: "0.001", unit: "SOL" });
const writeCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "create_transaction", arguments: sendArgs() } });

describe("the protected resource metadata (RFC 9728)", () => {
  it("names this resource, its authorization server and the custody scopes, at the path-inserted location and the bare one, with no token", async () => {
    const expected = {
      resource,
      authorization_servers: [authorization.issuer],
      scopes_supported: ["custody:read", "custody:write"],
      bearer_methods_supported: ["header"],
      resource_name: expect.any(String),
    };
    for (const url of [metadataUrl, new URL("/.well-known/oauth-protected-resource", resource).href]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      const document = (await response.json()) as unknown;
      expect(OAuthProtectedResourceMetadataSchema.parse(document)).toEqual(expected);
    }
    expect((await fetch(metadataUrl, { method: "POST", body: "{}" })).status).toBe(405);
  });
});

describe("requests without a valid access token", () => {
  it("answers 401 with a challenge naming the metadata and the scopes, and no error when no token was sent", async () => {
    const answer = await post(null, initialize);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(`Bearer scope="custody:read custody:write", resource_metadata="${metadataUrl}"`);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });

  const refusals: [string, () => Promise<string>, RegExp][] = [
    [
      "an expired token",
      () => authorization.signedWithProviderKey({ exp: Math.floor(Date.now() / 1000) - 120, iat: Math.floor(Date.now() / 1000) - 600 }),
      /has expired/,
    ],
    [
      "a token for another resource (a real sign-in asking for another audience)",
      () => authorization.personToken("alice", ["custody:read", "custody:write"], "http://127.0.0.1:1/other"),
      /audience is not this server/,
    ],
    ["a token of another issuer (a second authorization server)", () => otherIssuer.personToken("alice", ["custody:read", "custody:write"]), /not issued by/],
    ["a token with another iss signed by the issuer's own key", () => authorization.signedWithProviderKey({ iss: "http://127.0.0.1:1" }), /not issued by/],
    ["an unsigned token (alg none)", () => Promise.resolve(authorization.unsigned()), /unsigned/],
    ["a forged token (another key claiming the issuer's kid)", () => authorization.forged(), /signature does not verify/],
    ["a token signed with a shared secret (HS256)", () => authorization.symmetric(), /algorithm is not accepted/],
    [
      "a token naming a key the issuer does not publish (rotated away)",
      async () => {
        const claims = decodeJwt(await authorization.signedWithProviderKey({}));
        const retired = await generateKeyPair("RS256");
        return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: "retired-key" }).sign(retired.privateKey);
      },
      /not signed with a key the issuer publishes/,
    ],
    ["a token without an expiry", () => authorization.signedWithProviderKey({ exp: undefined }), /no exp claim/],
    ["a token not valid yet", () => authorization.signedWithProviderKey({ nbf: Math.floor(Date.now() / 1000) + 600 }), /not valid yet/],
    ["an opaque token", () => Promise.resolve("opaque-token-0123456789"), /not a JWT/],
    ["a JWT of another type (a security event token)", () => authorization.signedWithProviderKey({}, "secevent+jwt"), /typ must be at\+jwt or JWT/],
    ["a token naming no one (no sub)", () => authorization.signedWithProviderKey({ sub: undefined }), /no sub claim/],
  ];
  it.each(refusals)("refuses %s with 401 invalid_token saying why", async (_kind, make, why) => {
    const token = remember(await make());
    const answer = await post(token, initialize);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", scope="custody:read custody:write", resource_metadata="[^"]+"$/,
    );
    expect(answer.challenge).toMatch(why);
    expect(JSON.parse(answer.body).error.message).toMatch(why);
  });

  it("takes a token only from the Authorization header: one in the query string is no token", async () => {
    const token = remember(await authorization.personToken("alice", ["custody:read", "custody:write"]));
    const response = await fetch(`${resource}?access_token=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL_VERSION },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer scope="custody:read custody:write", resource_metadata="${metadataUrl}"`);
  });

  it("the same token as the refused ones, made valid, is accepted (the refusals are for the reasons named), with typ JWT or none too", async () => {
    for (const typ of ["at+jwt", "JWT", null])
      expect((await post(remember(await authorization.signedWithProviderKey({}, typ)), initialize)).status, String(typ)).toBe(200);
  });
});

describe("scopes", () => {
  it("a person with custody:read only lists tools and reads, and a write is refused 403 insufficient_scope naming custody:write", async () => {
    const token = remember(await authorization.personToken("bob", ["custody:read"]));
    const { client, sessionId } = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("create_transaction");
    expect(await callText(client, "list_accounts", {})).toContain("sol-treasury");
    await expect(client.callTool({ name: "create_transaction", arguments: sendArgs() })).rejects.toThrow(/custody:write/);

    const before = recorder.requests.length;
    const refused = await post(token, writeCall(21), sessionId);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toMatch(
      /^Bearer error="insufficient_scope", error_description="[^"]*create_transaction[^"]*custody:write[^"]*", scope="custody:read custody:write", resource_metadata="/,
    );
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringMatching(/insufficient_scope: calling create_transaction needs the custody:write scope/) },
    });
    // A batch hiding the write among reads is refused whole.
    const batch = await post(
      token,
      [{ jsonrpc: "2.0", id: 22, method: "tools/call", params: { name: "list_accounts", arguments: {} } }, writeCall(23)],
      sessionId,
    );
    expect(batch.status).toBe(403);
    expect(batch.body).toContain("custody:write");
    // Nothing reached the tool: the custody service saw no request for the refused calls.
    expect(recorder.requests.length).toBe(before);
    // Each refusal is on the audit chain: who tried which write.
    const refusals = readFileSync(auditLog, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; tool: string; person?: { subject: string }; details?: { reason?: string; tools?: string[] } })
      .filter((record) => record.details?.reason === "insufficient_scope");
    // One line per refused request (the client's call, the raw POST, the batch).
    expect(refusals).toHaveLength(3);
    for (const record of refusals)
      expect(record).toMatchObject({ event: "refused", tool: "create_transaction", person: { subject: "bob" }, details: { tools: ["create_transaction"] } });
  });

  it("a token with neither custody scope is refused 403 insufficient_scope naming custody:read", async () => {
    const token = remember(await authorization.signedWithProviderKey({ scope: "openid profile" }));
    const answer = await post(token, initialize);
    expect(answer.status).toBe(403);
    expect(answer.challenge).toMatch(/error="insufficient_scope", error_description="[^"]*custody:read/);
  });

  it("a person with both scopes gets a write's dry run, with its confirmation token", async () => {
    const { client } = await connect(remember(await authorization.personToken("alice", ["custody:read", "custody:write"])));
    const text = await callText(client, "create_transaction", sendArgs());
    expect(tokenFromText(text)).toMatch(/^v2\./);
  });

  it("a service signs in with client credentials and reads", async () => {
    const { client } = await connect(remember(await authorization.serviceToken(["custody:read"])));
    expect(await callText(client, "list_accounts", {})).toContain("sol-treasury");
    await expect(client.callTool({ name: "create_transaction", arguments: sendArgs() })).rejects.toThrow(/custody:write/);
  });
});

describe("sessions belong to who opened them", () => {
  it("another person's token on alice's session is answered as an unknown session; alice's next token keeps it", async () => {
    const { client, sessionId } = await connect(remember(await authorization.personToken("alice", ["custody:read", "custody:write"])));
    const bob = remember(await authorization.personToken("bob", ["custody:read", "custody:write"]));
    const intruder = await post(bob, ping, sessionId);
    expect(intruder.status).toBe(404);
    expect(intruder.body).toContain("Session not found");
    expect(logged).toContain('refused a request of subject "bob" on a session of subject "alice" (answered as an unknown session)');
    const service = await post(remember(await authorization.serviceToken(["custody:read", "custody:write"])), ping, sessionId);
    expect(service.status).toBe(404);
    // A new token of alice's (a refresh) reaches her session.
    const refreshed = await post(remember(await authorization.personToken("alice", ["custody:read"])), ping, sessionId);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toContain('"id":7');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe("a session follows its person's role", () => {
  it("ends when a token of the same subject names other groups: the tools, operator and limits it was opened with no longer apply", async () => {
    const alice = remember(await authorization.personToken("alice", ["custody:read", "custody:write"]));
    const { sessionId } = await connect(alice);
    expect((await post(alice, ping, sessionId)).status).toBe(200);
    const moved = await post(remember(await authorization.signedWithProviderKey({ groups: ["treasury-viewers"] })), ping, sessionId);
    expect(moved.status).toBe(404);
    expect(moved.body).toContain("your token's groups or roles changed since this session began; initialize a new session");
    // Closed, not only refused: the old membership's token does not bring it back.
    expect((await post(alice, ping, sessionId)).status).toBe(404);
  });
});

describe("2026-07-28 requests of people signed in", () => {
  it("run as the person the token names (the dry run audited under their subject), and a write needs custody:write as on 2025", async () => {
    const modern = async (token: string) => {
      const client = new Client({ name: "oauth-modern-test", version: "0" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      clients.push(client);
      return client;
    };
    const carol = await modern(remember(await authorization.personToken("carol", ["custody:read", "custody:write"])));
    expect(carol.getProtocolEra()).toBe("modern");
    const text = await callText(carol, "create_transaction", { ...sendArgs(), note: "carol on 2026-07-28" });
    expect(tokenFromText(text)).toMatch(/^v2\./);
    const records = readFileSync(auditLog, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; person?: { subject: string } });
    expect(records.filter((record) => record.event === "dry_run" && record.person?.subject === "carol")).toHaveLength(1);
    const reader = await modern(remember(await authorization.personToken("bob", ["custody:read"])));
    expect(await callText(reader, "list_accounts", {})).toContain("sol-treasury");
    await expect(reader.callTool({ name: "create_transaction", arguments: sendArgs() })).rejects.toThrow(/custody:write/);
  });
});

describe("tokens stay here", () => {
  it("no access token reaches the custody service (it gets the server's own headers) or a log line", () => {
    expect(recorder.requests.length).toBeGreaterThan(0);
    expect(issued.length).toBeGreaterThan(10);
    for (const request of recorder.requests) {
      expect(request.headers.authorization, `${request.method} ${request.path}`).toBeUndefined();
      const values = JSON.stringify(request.headers);
      for (const token of issued) expect(values.includes(token)).toBe(false);
    }
    const log = logged.join("\n");
    expect(log).toContain(`authorization server ${authorization.issuer}: signing keys at`);
    for (const token of issued) expect(log.includes(token)).toBe(false);
  });
});
