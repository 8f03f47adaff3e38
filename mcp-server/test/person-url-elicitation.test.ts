import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { transactionsWithLabel } from "./harness/demo-workspace.js";
import { call } from "./harness/mcp-harness.js";
import { control } from "./harness/control-plane.js";
import { MODERN } from "./harness/modern-client.js";
import { decideOnPage, expectConfirmedOnPage, LEGACY, urlOnlyClient, type PersonAtLink, type UrlEra } from "./harness/url-elicitation-person.js";
import { recordedWorkspace } from "./harness/recorded-workspace.js";

// Person mode with a client that declares only URL elicitation: the call with the reference asks it
// to show the person the confirmation page (its URL, with the page's secret, goes to the client's
// UI, not to the model, and the server opens nothing itself); the person decides there; the retried
// call reads the outcome. Both generations (2026-07-28 in the request's _meta, 2025-11-25 through
// the SDK's shim), over HTTP on loopback.

const TOKEN = "test-bearer-token-0123456789-url";
const opened: string[] = [];
const workspace = recordedWorkspace({ context: { opener: (url) => opened.push(url) } });
const { sendArgs, sends } = workspace;
let http: RunningHttpServer;

beforeAll(async () => {
  http = await startHttpServer(
    workspace.context.ctx,
    { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null },
    () => {},
  );
}, 60_000);
afterAll(async () => {
  await http?.close();
});

/** A client of the era declaring only URL elicitation, over HTTP; `person` plays what the person does with the URL it is given. */
async function urlClient(era: UrlEra, person: PersonAtLink): Promise<Client> {
  const client = urlOnlyClient(era, person);
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

describe.each([MODERN, LEGACY] as const)("a client that declares only URL elicitation (%s)", (era) => {
  it("is given the page's URL for the person; they confirm there; the retried call answers submitted, sent once", async () => {
    const shown: string[] = [];
    let decidedText = "";
    const client = await urlClient(era, async (url, mode) => {
      shown.push(url);
      expect(mode).toBe("url");
      decidedText = await decideOnPage(url, "confirm");
      return { action: "accept" };
    });
    try {
      const args = await sendArgs(`url ${era}`);
      const dry = await call(client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      const before = sends();
      const openedBefore = opened.length;
      const outcome = await call(client, "create_transaction", { ...args, reference });
      const labelled = await transactionsWithLabel(workspace.emulator, reference);
      expectConfirmedOnPage({ shown, decided: decidedText, dry, outcome, sentMore: sends() - before, labelled });
      // The server opened no page of its own: the client showed it.
      expect(opened.length).toBe(openedBefore);
      // A second call reads the same outcome and sends nothing more.
      expect((await call(client, "create_transaction", { ...args, reference })).structured.status).toBe("submitted");
      expect(sends()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it.each([
    { label: "", slow: false },
    // The confirmation's last check on fresh data is slow: the intent is used seconds before its write is reserved.
    { label: ", its write still being checked when the call reads the decision (never declined)", slow: true },
  ])("a retried call waits for the person who opened the page and decides later, then answers the outcome$label", async ({ slow }) => {
    let shown = "";
    const client = await urlClient(era, async (url) => {
      shown = url;
      return { action: "accept" };
    });
    try {
      const args = await sendArgs(`url later ${slow ? "slow " : ""}${era}`);
      const reference = (await call(client, "create_transaction", args)).structured.reference as string;
      const before = sends();
      let decision: Promise<string> | null = null;
      const slowed = () => (slow ? control(workspace.emulator, "PUT", "/faults", { latency_ms: 800, methods: ["GET"], path_prefix: "/", remaining: 6 }) : null);
      // The person decides only once the retried call is seen waiting for them (its progress).
      const result = await client.callTool(
        { name: "create_transaction", arguments: { ...args, reference } },
        {
          onprogress: (progress) => {
            if (progress.message?.startsWith("waiting for the person's decision"))
              decision ??= Promise.resolve(slowed()).then(() => decideOnPage(shown, "confirm"));
          },
        },
      );
      expect(await decision).toContain("<h1>Submitted</h1>");
      expect((result.structuredContent as { status?: string }).status, JSON.stringify(result.content)).toBe("submitted");
      expect(sends()).toBe(before + 1);
    } finally {
      if (slow) await control(workspace.emulator, "DELETE", "/faults");
      await client.close();
    }
  });

  it("an expired dry run sends nothing: the person is not sent to its page, and the call answers expired", async () => {
    const shown: string[] = [];
    const client = await urlClient(era, async (url) => {
      shown.push(url);
      await decideOnPage(url, "confirm");
      return { action: "accept" };
    });
    try {
      const args = await sendArgs(`url expired ${era}`);
      const dry = await call(client, "create_transaction", args);
      const reference = dry.structured.reference as string;
      workspace.context.clock.advance(Date.parse(dry.structured.expires_at as string) - workspace.context.clock.now().getTime() + 1);
      const before = sends();
      const late = await call(client, "create_transaction", { ...args, reference });
      expect(late.structured.status, late.text).toBe("expired");
      expect(shown).toEqual([]);
      expect(sends()).toBe(before);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("declined on the page sends nothing; a person who does not open the page leaves it waiting", async () => {
    let choice: "open and decline" | "dismiss" = "dismiss";
    const client = await urlClient(era, async (url) => {
      if (choice === "dismiss") return { action: "decline" };
      await decideOnPage(url, "decline");
      return { action: "accept" };
    });
    try {
      const args = await sendArgs(`url no ${era}`);
      const reference = (await call(client, "create_transaction", args)).structured.reference as string;
      const before = sends();
      const waiting = await call(client, "create_transaction", { ...args, reference });
      expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
      choice = "open and decline";
      const declined = await call(client, "create_transaction", { ...args, reference });
      expect(declined.structured.status, declined.text).toBe("declined");
      expect(sends()).toBe(before);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("the wait for the person's decision on the page", () => {
  it("reads the write alone while it is in flight: the dry run is not read again once its write is reserved", async () => {
    let shown = "";
    const client = await urlClient(MODERN, async (url) => {
      shown = url;
      return { action: "accept" };
    });
    const store = workspace.context.ctx.road.store;
    const intentReads = vi.spyOn(store, "lookUpIntent");
    const writeReads = vi.spyOn(store, "writeByReference");
    const reserved = vi.spyOn(store, "reserve");
    try {
      const args = await sendArgs("url in flight");
      const reference = (await call(client, "create_transaction", args)).structured.reference as string;
      const before = sends();
      let decision: Promise<string> | null = null;
      // The workspace answers the confirmed write's POST 2 s late: the retried call waits with the write in flight meanwhile.
      const held = () => control(workspace.emulator, "PUT", "/faults", { latency_ms: 2000, methods: ["POST"], path_prefix: "/", remaining: 1 });
      const result = await client.callTool(
        { name: "create_transaction", arguments: { ...args, reference } },
        {
          onprogress: (progress) => {
            if (progress.message?.startsWith("waiting for the person's decision")) decision ??= held().then(() => decideOnPage(shown, "confirm"));
          },
        },
      );
      expect(await decision).toContain("<h1>Submitted</h1>");
      expect((result.structuredContent as { status?: string }).status, JSON.stringify(result.content)).toBe("submitted");
      expect(sends()).toBe(before + 1);
      const reservedAt = reserved.mock.invocationCallOrder[0] ?? Infinity;
      const after = (order: number[]) => order.filter((at) => at > reservedAt).length;
      // At most the poll that learns the write's reference and the answer's own reading; the write read on each poll meanwhile.
      expect(after(intentReads.mock.invocationCallOrder)).toBeLessThanOrEqual(2);
      expect(after(writeReads.mock.invocationCallOrder)).toBeGreaterThanOrEqual(3);
    } finally {
      vi.restoreAllMocks();
      await control(workspace.emulator, "DELETE", "/faults");
      await client.close();
    }
  });
});

describe.each([MODERN, LEGACY] as const)("a retried call waiting for the person's decision on the page (%s)", (era) => {
  it("ends as soon as its client cancels it, in the middle of a pause between polls, and reads the store no more", async () => {
    // A poll every ten minutes: the call is cancelled in its first pause, which only the cancel can end within the test.
    const waitingCtx = workspace.contextWith({ policy: { confirmation: "person" }, decisionPollMs: 600_000 }).ctx;
    const server = await startHttpServer(
      waitingCtx,
      { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null },
      () => {},
    );
    const client = urlOnlyClient(era, async () => ({ action: "accept" }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const store = waitingCtx.road.store;
    const reads = [vi.spyOn(store, "lookUpIntent"), vi.spyOn(store, "writeByReference")];
    const readCount = () => reads.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    try {
      const args = await sendArgs(`url cancelled ${era}`);
      const reference = (await call(client, "create_transaction", args)).structured.reference as string;
      const cancel = new AbortController();
      let pausing: () => void = () => {};
      const paused = new Promise<void>((resolve) => (pausing = resolve));
      const confirming = client
        .callTool(
          { name: "create_transaction", arguments: { ...args, reference } },
          {
            signal: cancel.signal,
            // Said right before the pause.
            onprogress: (progress) => {
              if (progress.message?.startsWith("waiting for the person's decision")) pausing();
            },
          },
        )
        .catch((error: unknown) => error);
      await paused;
      const readBefore = readCount();
      cancel.abort();
      expect(await confirming).toBeInstanceOf(Error);
      await vi.waitFor(() => expect(server.pending).toBe(0), { timeout: 10_000, interval: 20 });
      expect(readCount()).toBe(readBefore);
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
    } finally {
      vi.restoreAllMocks();
      await client.close();
      await server.close();
    }
  });
});
