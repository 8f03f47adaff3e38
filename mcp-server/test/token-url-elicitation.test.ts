import { readFileSync } from "node:fs";
import { join } from "node:path";
import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { buildBundle } from "./harness/built-bundle.js";
import { DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, type TestContext } from "./harness/mcp-harness.js";
import { MODERN } from "./harness/modern-client.js";
import { recordedWorkspace } from "./harness/recorded-workspace.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";
import { decideOnPage, expectConfirmedOnPage, LEGACY, urlOnlyClient, type PersonAtLink, type UrlEra } from "./harness/url-elicitation-person.js";

// Token mode (the default) with a client that declares only URL elicitation: the token does not
// confirm alone; its call asks the client to show the person the dry run's confirmation page (URL
// mode, the page's secret in the link the client shows the person, never the model), the person
// decides there, and the retried call reads the decision from the store. Both generations, over
// Streamable HTTP (the server in process) and over stdio (the built bundle, its page on a loopback
// listener), the page driven by plain HTTP requests as a browser would post it.

const BEARER = "test-bearer-token-0123456789-tok-url";

const workspace = recordedWorkspace();
const { sendArgs, sends } = workspace;
let tokenMode: TestContext;
let http: RunningHttpServer;
let bundle: string;
let stdioAudit: string;
/** One home for every stdio server of the file: they share the audit log, so the seal key in it too. */
let home: ReturnType<typeof childHome>;

beforeAll(async () => {
  tokenMode = workspace.contextWith();
  http = await startHttpServer(
    tokenMode.ctx,
    { port: 0, host: "127.0.0.1", token: BEARER, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null },
    () => {},
  );
  bundle = buildBundle();
  stdioAudit = join(tempDir("custody-mcp-audit-"), "audit.jsonl");
  home = childHome();
}, 180_000);
afterAll(async () => {
  await http?.close();
  await tokenMode?.ctx.pages.close();
});

/** A client of the era declaring only URL elicitation, over the transport; `person` plays what the person does with the URL. */
async function urlClient(transport: "http" | "stdio", era: UrlEra, person: PersonAtLink): Promise<Client> {
  const client = urlOnlyClient(era, person);
  if (transport === "http") {
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${BEARER}` } } }));
    return client;
  }
  const env = {
    PATH: process.env.PATH ?? "",
    ...home,
    CUSTODY_BASE_URL: workspace.recorder.baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: stdioAudit,
  };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle], env, stderr: "ignore" }));
  return client;
}

/** The audit's records of a reference's decision: the event and where it was made. */
function decisions(transport: "http" | "stdio", reference: string): [string, string | undefined][] {
  return readFileSync(transport === "http" ? tokenMode.auditPath : stdioAudit, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { event: string; details?: { through?: string; reference?: string; correlation_id?: string } })
    .filter((record) => (record.event === "confirmed" || record.event === "declined") && JSON.stringify(record).includes(reference))
    .map((record) => [record.event, record.details?.through]);
}

describe.each([
  ["http", MODERN],
  ["http", LEGACY],
  ["stdio", MODERN],
  ["stdio", LEGACY],
] as const)("token mode, a client that declares only URL elicitation (%s, %s)", (transport, era) => {
  it("is sent to the dry run's page; the person confirms there; the retried call answers submitted, sent once; the token then reads reused", async () => {
    const shown: string[] = [];
    let decided = "";
    const client = await urlClient(transport, era, async (url, mode) => {
      shown.push(url);
      expect(mode).toBe("url");
      decided = await decideOnPage(url, "confirm");
      return { action: "accept" };
    });
    try {
      const args = await sendArgs(`token url ${transport} ${era}`);
      const dry = await call(client, "create_transaction", args);
      expect(dry.token, dry.text).toEqual(expect.any(String));
      const reference = dry.structured.reference as string;
      const before = sends();
      const outcome = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      const labelled = await transactionsWithLabel(workspace.emulator, reference);
      expectConfirmedOnPage({ shown, decided, dry, outcome, sentMore: sends() - before, labelled });
      expect(decisions(transport, reference)).toEqual([["confirmed", "page"]]);
      // The same token again: used once, as before; nothing more is sent and the person is not asked again.
      const again = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect([again.structured.status, again.structured.reason], again.text).toEqual(["refused", "reused"]);
      expect(again.structured.transaction_id).toBe(outcome.structured.transaction_id);
      expect(shown).toHaveLength(1);
      expect(sends()).toBe(before + 1);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("declined on the page sends nothing; the token then reads reused", async () => {
    const shown: string[] = [];
    const client = await urlClient(transport, era, async (url) => {
      shown.push(url);
      await decideOnPage(url, "decline");
      return { action: "accept" };
    });
    try {
      const args = await sendArgs(`token url no ${transport} ${era}`);
      const dry = await call(client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const before = sends();
      const declined = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(declined.structured.status, declined.text).toBe("declined");
      expect(shown).toHaveLength(1);
      expect(decisions(transport, reference)).toEqual([["declined", "page"]]);
      const again = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect([again.structured.status, again.structured.reason], again.text).toEqual(["refused", "reused"]);
      expect(sends()).toBe(before);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("token mode's page round trip (HTTP, 2026-07-28)", () => {
  it("a person who does not open the page leaves it unsent and confirmable: the next call shows the page again", async () => {
    let choice: "dismiss" | "confirm" = "dismiss";
    const shown: string[] = [];
    const client = await urlClient("http", MODERN, async (url) => {
      shown.push(url);
      if (choice === "dismiss") return { action: "decline" };
      await decideOnPage(url, "confirm");
      return { action: "accept" };
    });
    try {
      const args = await sendArgs("token url dismissed");
      const dry = await call(client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const before = sends();
      const waiting = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
      expect(waiting.text).toContain("Call again with the same arguments and confirmation_token");
      expect(sends()).toBe(before);
      choice = "confirm";
      const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(shown).toHaveLength(2);
      expect(sends()).toBe(before + 1);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([confirmed.structured.transaction_id]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a token with other arguments than its dry run's is refused naming them, the person not asked, nothing sent", async () => {
    const shown: string[] = [];
    const client = await urlClient("http", MODERN, async (url) => {
      shown.push(url);
      return { action: "accept" };
    });
    try {
      const args = await sendArgs("token url other");
      const dry = await call(client, "create_transaction", args);
      const before = sends();
      const other = await call(client, "create_transaction", { ...args, amount: "0.5", confirmation_token: dry.token });
      expect([other.structured.status, other.structured.reason], other.text).toEqual(["refused", "digest_mismatch"]);
      expect(other.text).toContain("amount: differs from the dry run this confirmation_token names");
      expect(shown).toEqual([]);
      expect(sends()).toBe(before);
    } finally {
      await client.close();
    }
  }, 60_000);
});
