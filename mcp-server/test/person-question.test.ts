import { readFileSync } from "node:fs";
import { join } from "node:path";
import { verifyAuditLog } from "@custody/shared";
import type { RunningEmulator } from "@custody/emulator";
import { Client, StreamableHTTPClientTransport, type ElicitResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { buildBundle } from "./harness/built-bundle.js";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, startTestEmulator, testContext } from "./harness/mcp-harness.js";
import { MODERN, modernClient } from "./harness/modern-client.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";

// The person's confirmation as an input-required round trip: a 2026-07-28 client answers the
// embedded form and calls again; on a 2025-11-25 session the same code asks through
// elicitation/create. Real clients, the emulator, HTTP on loopback and the stdio bundle.

const TOKEN = "test-bearer-token-0123456789";
const HTTP_OPTIONS = { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null };
const LEGACY = "2025-11-25";
let emulator: RunningEmulator;
let http: RunningHttpServer;
let httpAudit: string;
let bundle: string;

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
  const context = testContext(emulator);
  httpAudit = context.auditPath;
  http = await startHttpServer(context.ctx, HTTP_OPTIONS, () => {});
}, 60_000);
afterAll(async () => {
  await http?.close();
  await emulator?.close();
});

type Era = typeof MODERN | typeof LEGACY;
type Answer = (message: string) => ElicitResult | Promise<ElicitResult>;

/** A client of the era that declares form elicitation and answers with `answer`, keeping every message it was shown. */
function askedClient(era: Era, answer: Answer): { client: Client; shown: string[] } {
  const capabilities = { elicitation: { form: {} } };
  const client = era === MODERN ? modernClient(capabilities) : new Client({ name: "legacy-test", version: "0" }, { capabilities });
  const shown: string[] = [];
  client.setRequestHandler("elicitation/create", (request) => {
    shown.push(request.params.message);
    return answer(request.params.message);
  });
  return { client, shown };
}

interface Connected {
  client: Client;
  shown: string[];
  auditPath: string;
}

async function overHttp(era: Era, answer: Answer): Promise<Connected> {
  const asked = askedClient(era, answer);
  await asked.client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  return { ...asked, auditPath: httpAudit };
}

async function overStdio(era: Era, answer: Answer): Promise<Connected> {
  const auditPath = join(tempDir("custody-mcp-audit-"), "audit.jsonl");
  const env = {
    PATH: process.env.PATH ?? "",
    ...childHome(),
    CUSTODY_BASE_URL: emulator.baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: auditPath,
  };
  const asked = askedClient(era, answer);
  await asked.client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle], env, stderr: "pipe" }));
  return { ...asked, auditPath };
}

let sent = 0;
/** A send from the demo treasury; each its own amount, so none is taken for a repeat of another. */
const sendArgs = async (note: string) => ({
  account: DEMO.solTreasury,
  recipient: (await accountNamed(emulator, DEMO.solCold)).address,
  amount: `0.0${(sent += 1).toString().padStart(2, "0")}1`,
  unit: "SOL",
  note,
});

/** One line of what moves ("Fee: ...", "Balances: ..."), as a dry run's text or the person's form shows it. */
const lineOf = (text: string, label: string) => new RegExp(`^${label}: .*$`, "m").exec(text)?.[0];

/** The events the audit log records for a write, by its reference. */
function eventsOf(auditPath: string, reference: string): string[] {
  return readFileSync(auditPath, "utf8")
    .split("\n")
    .filter((line) => line.includes(reference))
    .map((line) => (JSON.parse(line) as { event: string }).event);
}

const ACCEPT: ElicitResult = { action: "accept", content: { confirm: true } };

describe.each([
  [MODERN, "Streamable HTTP", overHttp],
  [MODERN, "stdio (the bundle)", overStdio],
  [LEGACY, "Streamable HTTP", overHttp],
  [LEGACY, "stdio (the bundle)", overStdio],
] as const)("a %s client over %s", (era, _transport, connect) => {
  it("is asked once, with the dry run's own figures, and the accepted write is sent once on one audit chain", async () => {
    const { client, shown, auditPath } = await connect(era, () => ACCEPT);
    try {
      const args = await sendArgs(`asked ${era}`);
      const dry = await call(client, "create_transaction", args);
      expect(dry.structured.status, dry.text).toBe("dry_run");
      expect(shown).toEqual([]);
      const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(shown).toHaveLength(1);
      const [form] = shown as [string];
      expect(form).toContain("Submit it?");
      for (const label of ["Amount", "Fee", "Balances"]) {
        expect(lineOf(dry.text, label), label).toEqual(expect.any(String));
        expect(lineOf(form, label), label).toBe(lineOf(dry.text, label));
      }
      const reference = dry.structured.reference as string;
      expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
      expect(eventsOf(auditPath, reference)).toEqual(["dry_run", "confirmed", "reserved", "submitted"]);
      expect(verifyAuditLog(auditPath)).toMatchObject({ ok: true });
    } finally {
      await client.close();
    }
  });

  for (const [label, reply] of [
    ["declines", { action: "decline" }],
    ["cancels", { action: "cancel" }],
    ["accepts without ticking confirm", { action: "accept", content: { confirm: false } }],
  ] satisfies [string, ElicitResult][]) {
    it(`sends nothing when the person ${label}`, async () => {
      const { client, shown } = await connect(era, () => reply);
      try {
        const args = await sendArgs(`no ${era}`);
        const dry = await call(client, "create_transaction", args);
        const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
        expect(confirmed.structured.status, confirmed.text).toBe("declined");
        expect(shown).toHaveLength(1);
        expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
      } finally {
        await client.close();
      }
    });
  }

  it("sends nothing when no answer comes (the client's form fails), and the dry run can still be confirmed", async () => {
    let fail = true;
    const { client, shown } = await connect(era, () => {
      if (fail) throw new Error("the person closed the window");
      return ACCEPT;
    });
    try {
      const args = await sendArgs(`unanswered ${era}`);
      const dry = await call(client, "create_transaction", args);
      const unanswered = await call(client, "create_transaction", { ...args, confirmation_token: dry.token }).catch((error: unknown) => ({ thrown: error }));
      if (!("thrown" in unanswered)) expect(unanswered.isError, unanswered.text).toBe(true);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
      fail = false;
      const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(shown).toHaveLength(2);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe("the requestState of a 2026-07-28 question", () => {
  /** A 2026-07-28 client that hands the question back instead of answering it: the test answers, or tampers. */
  async function manualClient(): Promise<Client> {
    const client = new Client(
      { name: "manual", version: "0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN } }, inputRequired: { autoFulfill: false } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    return client;
  }

  /** The confirmation's first leg: the question and the sealed state, nothing used up. */
  async function asked(client: Client, args: Record<string, unknown>, token: string | undefined) {
    const result = (await client.callTool(
      { name: "create_transaction", arguments: { ...args, confirmation_token: token } },
      { allowInputRequired: true },
    )) as unknown as { resultType?: string; requestState: string; inputRequests: Record<string, { params: { message: string } }> };
    expect(result.resultType).toBe("input_required");
    return result;
  }

  /** The retried call, as a client sends it: the arguments again, the answer and the requestState. */
  async function answered(client: Client, args: Record<string, unknown>, token: string | undefined, requestState: string) {
    const result = await client.callTool({
      name: "create_transaction",
      arguments: { ...args, confirmation_token: token },
      requestState,
      inputResponses: { confirm: ACCEPT },
    } as never);
    return { structured: (result.structuredContent ?? {}) as { status?: string; reason?: string; error?: string }, text: JSON.stringify(result.content) };
  }

  /** The state with its sealed content changed (another person named in it), the signature kept. */
  function tampered(state: string): string {
    const [prefix, body, mac] = state.split(".") as [string, string, string];
    const content = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    return [prefix, Buffer.from(JSON.stringify({ ...content, person: "mallory" })).toString("base64url"), mac].join(".");
  }

  it(
    "is refused when tampered with or when it was sealed for another dry run, sends nothing, and " +
      "uses nothing up: the owner confirms once, a replay reads already used",
    async () => {
      const client = await manualClient();
      try {
        const args = await sendArgs("manual 2026");
        const dry = await call(client, "create_transaction", args);
        const question = await asked(client, args, dry.token);
        expect(question.inputRequests.confirm?.params.message).toContain("Submit it?");
        const reference = dry.structured.reference as string;

        const altered = await answered(client, args, dry.token, tampered(question.requestState));
        expect(altered.structured, altered.text).toMatchObject({ status: "refused", reason: "request_state" });
        expect(altered.structured.error).toMatch(/signature does not match/);
        const otherArgs = await sendArgs("another dry run");
        const otherDry = await call(client, "create_transaction", otherArgs);
        const otherQuestion = await asked(client, otherArgs, otherDry.token);
        const swapped = await answered(client, args, dry.token, otherQuestion.requestState);
        expect(swapped.structured, swapped.text).toMatchObject({ status: "refused", reason: "request_state" });
        expect(await transactionsWithLabel(emulator, reference)).toEqual([]);

        const confirmed = await answered(client, args, dry.token, question.requestState);
        expect(confirmed.structured.status, confirmed.text).toBe("submitted");
        const replayed = await answered(client, args, dry.token, question.requestState);
        expect(replayed.structured).toMatchObject({ status: "refused", reason: "reused" });
        expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
        expect(eventsOf(httpAudit, reference)).toEqual(["dry_run", "confirmed", "reserved", "submitted"]);
      } finally {
        await client.close();
      }
    },
  );

  it("asks again, using nothing up, when a retried call brings no answer to the question (none, or under another key)", async () => {
    const client = await manualClient();
    try {
      const args = await sendArgs("retried without the answer");
      const dry = await call(client, "create_transaction", args);
      let question = await asked(client, args, dry.token);
      for (const inputResponses of [undefined, { other: ACCEPT }]) {
        const again = (await client.callTool(
          { name: "create_transaction", arguments: { ...args, confirmation_token: dry.token }, requestState: question.requestState, inputResponses } as never,
          { allowInputRequired: true },
        )) as unknown as typeof question;
        expect(again.resultType, JSON.stringify(inputResponses)).toBe("input_required");
        expect(again.inputRequests.confirm?.params.message).toBe(question.inputRequests.confirm?.params.message);
        question = again;
      }
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
      const confirmed = await answered(client, args, dry.token, question.requestState);
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("counts the answer only for the question asked: when what the person would be told changed since, nothing is sent", async () => {
    const client = await manualClient();
    const account = await accountNamed(emulator, DEMO.solTreasury);
    try {
      const args = await sendArgs("asked before governance changed");
      const dry = await call(client, "create_transaction", args);
      const question = await asked(client, args, dry.token);
      // While the person reads the form, the account's rule comes to require another operator's approval: the forecast they were shown no longer holds.
      const bots = [
        { username: DEMO.treasuryBot, is_api: true },
        { username: DEMO.stakingBot, is_api: true },
      ];
      await control(emulator, "PUT", `/accounts/${account.id}/governance`, {
        ...account.governance_rules,
        transaction: { creators: bots, steps: [{ quorum: 1, approvers: [bots[1]] }] },
      });
      const answer = await answered(client, args, dry.token, question.requestState);
      expect(answer.structured, answer.text).toMatchObject({ status: "declined" });
      expect(answer.structured.error).toMatch(/not what the person was asked/);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
    } finally {
      await control(emulator, "PUT", `/accounts/${account.id}/governance`, account.governance_rules);
      await client.close();
    }
  });
});

describe("a 2025-11-25 person reading the form", () => {
  it("keeps the call alive with progress for a client that asked for it, however long the person reads", async () => {
    let progressed = 0;
    let heard: () => void = () => {};
    const { client, shown } = await overHttp(
      LEGACY,
      () =>
        // The person answers after the server has said twice that it is still waiting: past the call's own 2.5 s timeout.
        new Promise<ElicitResult>((resolve, reject) => {
          const giveUp = setTimeout(() => reject(new Error("no progress came while the form was open")), 10_000);
          heard = () => {
            if (progressed < 2) return;
            clearTimeout(giveUp);
            resolve(ACCEPT);
          };
        }),
    );
    try {
      const args = await sendArgs("a slow reader");
      const dry = await call(client, "create_transaction", args);
      const confirmed = await client.callTool(
        { name: "create_transaction", arguments: { ...args, confirmation_token: dry.token } },
        {
          timeout: 2500,
          resetTimeoutOnProgress: true,
          onprogress: () => {
            progressed += 1;
            heard();
          },
        },
      );
      expect((confirmed.structuredContent as { status?: string }).status, JSON.stringify(confirmed.content)).toBe("submitted");
      expect(shown).toHaveLength(1);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
