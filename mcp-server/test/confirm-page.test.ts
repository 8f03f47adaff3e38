import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { verifyAuditCommand } from "../src/audit/verify-audit-command.js";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { buildBundle } from "./harness/built-bundle.js";
import { pageRequest } from "./harness/page-request.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";
import { DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, connectSession } from "./harness/mcp-harness.js";
import { recordedWorkspace } from "./harness/recorded-workspace.js";

// Person mode's confirmation page in a real browser (Debian's Chromium through playwright-core):
// a client that cannot ask is given the page's link; the person confirms or declines there; the
// page's own secret and origin are required; a second yes or an expired dry run sends nothing.
// The model is given only a read-only link: the one that confirms goes to the person's browser
// (the server's opener, captured here), so a client holding every string any answer gave, with
// plain HTTP on loopback and any Origin, cannot confirm.

const TTL_MS = 120_000;
const TOKEN = "test-bearer-token-0123456789-abcdef";
/** The links the server opened in the person's browser. */
const opened: string[] = [];
const workspace = recordedWorkspace({ browser: "confirm-page", context: { tokenTtlMs: TTL_MS, opener: (url) => opened.push(url) } });
const { sendArgs, sends } = workspace;
let http: RunningHttpServer;

afterAll(async () => {
  await http?.close();
});

/** A model's client (no form): the dry run, then the same call with its reference, which answers the page's link. */
async function waitingWrite(note: string) {
  const model = await connectSession(workspace.context.ctx);
  const args = await sendArgs(note);
  const dry = await call(model.client, "create_transaction", args);
  const reference = dry.structured.reference as string;
  const waiting = await call(model.client, "create_transaction", { ...args, reference });
  expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
  const shown = modelLink(waiting.text);
  const link = personLink(opened, shown);
  expect((await call(model.client, "create_transaction", { ...args, reference })).structured.status).toBe("waiting_for_person");
  expect(
    opened.filter((url) => url === link),
    "opened once",
  ).toHaveLength(1);
  return { model, args, reference, link, shown, answers: [dry, waiting], again: () => call(model.client, "create_transaction", { ...args, reference }) };
}

/** The read-only link an answer gives the model. */
function modelLink(text: string): string {
  const link = /\((\S+) shows it read-only/.exec(text)?.[1] as string;
  expect(link, text).toMatch(/\/confirm\/p1\.[^?]+$/);
  return link;
}

/** The person's link to the page the model was shown: the same, with the page's key. */
function personLink(links: readonly string[], shown: string): string {
  const link = links.find((url) => url.startsWith(`${shown}?key=`)) as string;
  expect(link, `opened ${links.length} links`).toEqual(expect.any(String));
  return link;
}

async function openPage(link: string, shot: string): Promise<Page> {
  const page = await workspace.browser.newPage({ viewport: { width: 1000, height: 900 } });
  const response = await page.goto(link);
  expect(response?.status()).toBe(200);
  await page.screenshot({ path: join(workspace.shots, `${shot}.png`), fullPage: true });
  return page;
}

/** The hidden fields of the person's page: its secret and the digest of the question it shows. */
async function hiddenFields(page: Page): Promise<{ secret: string; question: string }> {
  const field = async (name: string) => (await page.locator(`input[name="${name}"]`).getAttribute("value")) ?? "";
  return { secret: await field("secret"), question: await field("question") };
}

/** A raw POST to a page, with exactly these headers (Origin among them, or not). */
function rawPost(link: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return pageRequest("POST", link, body, { "Content-Type": "application/x-www-form-urlencoded", ...headers });
}

describe("the confirmation page (stdio's loopback listener)", () => {
  it("shows the exact dry run; yes sends once, a second yes sends nothing more, and the model reads the outcome", async () => {
    const { model, reference, link, again } = await waitingWrite("page yes");
    try {
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\/confirm\/p1\./);
      const page = await openPage(link, "confirm");
      const shown = await page.locator("#write").innerText();
      for (const label of ["Amount: ", "Fee: ", "Balances: ", "Request: POST", "Expires: ", "Submit it?"]) expect(shown).toContain(label);
      const headers = (await page.request.get(link)).headers();
      expect(headers["content-security-policy"]).toContain("default-src 'none'");
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "same-origin" });
      const secret = await page.locator('input[name="secret"]').getAttribute("value");
      const before = sends();
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("heading", { name: "Submitted" }).waitFor();
      await page.screenshot({ path: join(workspace.shots, "submitted.png"), fullPage: true });
      expect(sends()).toBe(before + 1);
      const outcome = await again();
      expect(outcome.structured.status, outcome.text).toBe("submitted");
      expect([outcome.structured.transaction_id]).toEqual(await transactionsWithLabel(workspace.emulator, reference));
      // The same decision again, from the page's origin with its secret: nothing more.
      const replay = await rawPost(link, new URLSearchParams({ secret: secret ?? "", question: "x", decision: "confirm" }).toString(), {
        Origin: new URL(link).origin,
      });
      expect(replay.status).toBe(410);
      expect(sends()).toBe(before + 1);
      await page.close();
    } finally {
      await model.close();
    }
  });

  it("no sends nothing, and the model reads that it was declined", async () => {
    const { model, reference, link, again } = await waitingWrite("page no");
    try {
      const page = await openPage(link, "decline");
      const before = sends();
      await page.getByRole("button", { name: "Decline" }).click();
      await page.getByRole("heading", { name: "Declined" }).waitFor();
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("declined");
      expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
      await page.close();
    } finally {
      await model.close();
    }
  });

  it("refuses a post from another origin, without Origin, or without the page's secret; nothing is sent and the page still works", async () => {
    const { model, link, again } = await waitingWrite("page forged");
    try {
      const page = await openPage(link, "forged");
      const { secret, question } = await hiddenFields(page);
      const origin = new URL(link).origin;
      const form = (fields: Record<string, string>) => new URLSearchParams({ question, decision: "confirm", ...fields }).toString();
      const before = sends();
      expect((await rawPost(link, form({ secret }), { Origin: "http://evil.example" })).status).toBe(403);
      expect((await rawPost(link, form({ secret }), {})).status).toBe(403);
      expect((await rawPost(link, form({}), { Origin: origin })).status).toBe(403);
      expect((await rawPost(link, form({ secret: `${secret.slice(0, -2)}AA` }), { Origin: origin })).status).toBe(403);
      // One secret, one spelling: its last character as one whose low byte is the same (latin1 would read them alike).
      const sameLowByte = `${secret.slice(0, -1)}${String.fromCharCode(secret.charCodeAt(secret.length - 1) + 0x100)}`;
      expect((await rawPost(link, form({ secret: sameLowByte }), { Origin: origin })).status).toBe(403);
      expect((await rawPost(link, form({ secret }), { Origin: origin, Host: "evil.example" })).status).toBe(403);
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("waiting_for_person");
      await page.close();
    } finally {
      await model.close();
    }
  });

  it("takes one of two decisions posted at once: one send, the other answered that nothing is left to confirm", async () => {
    const { model, link, again } = await waitingWrite("page twice at once");
    try {
      const page = await openPage(link, "twice-at-once");
      const { secret, question } = await hiddenFields(page);
      const body = new URLSearchParams({ secret, question, decision: "confirm" }).toString();
      const before = sends();
      const posted = await Promise.all([0, 1, 2].map(() => rawPost(link, body, { Origin: new URL(link).origin })));
      expect(posted.map((answer) => answer.status).sort()).toEqual([200, 410, 410]);
      expect(sends()).toBe(before + 1);
      expect((await again()).structured.status).toBe("submitted");
      await page.close();
    } finally {
      await model.close();
    }
  });

  it("sends nothing for a dry run that expired while the page was open", async () => {
    const { model, link, again } = await waitingWrite("page expired");
    try {
      const page = await openPage(link, "expiring");
      workspace.context.clock.advance(TTL_MS + 1);
      const before = sends();
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.locator("h1").waitFor();
      expect(await page.locator("h1").innerText()).not.toBe("Submitted");
      expect(sends()).toBe(before);
      expect((await again()).structured.status).toBe("expired");
      await page.close();
    } finally {
      await model.close();
    }
  });
});

describe("the model's link", () => {
  it(
    "shows the write read-only; every string any answer or the page gave, posted or passed as the " +
      "key with any Origin, confirms nothing; the person's link confirms once",
    async () => {
      const { model, link, shown, answers, again } = await waitingWrite("model alone");
      try {
        const page = await openPage(shown, "model-link");
        expect(await page.locator("h1").innerText()).toMatch(/^Waiting for you/);
        expect(await page.locator("#write").innerText()).toContain("Amount: ");
        expect(await page.locator("form").count()).toBe(0);
        const html = (await pageRequest("GET", shown)).text;
        await page.close();
        const pool = new Set<string>([
          ...answers.flatMap((answer) => stringsOf(answer.text, answer.structured)),
          ...stringsOf(html, null),
          ...stringsOf(shown, null),
        ]);
        const origin = new URL(shown).origin;
        const before = sends();
        for (const text of pool) {
          const withKey = await pageRequest("GET", `${shown}?key=${encodeURIComponent(text)}`);
          expect(withKey.text).not.toContain('name="secret"');
          for (const from of [origin, "null", "http://evil.example"]) {
            const posted = await rawPost(shown, new URLSearchParams({ secret: text, question: text, decision: "confirm" }).toString(), { Origin: from });
            expect(posted.status, `${from} ${text}`).toBe(403);
          }
        }
        expect(sends()).toBe(before);
        expect((await again()).structured.status).toBe("waiting_for_person");
        // No answer carried the person's key.
        const key = new URL(link).searchParams.get("key") as string;
        expect([...pool].some((text) => text.includes(key))).toBe(false);
        const person = await openPage(link, "person-link");
        await person.getByRole("button", { name: "Confirm" }).click();
        await person.getByRole("heading", { name: "Submitted" }).waitFor();
        expect(sends()).toBe(before + 1);
        expect((await again()).structured.status).toBe("submitted");
        await person.close();
      } finally {
        await model.close();
      }
    },
  );
});

/** Every string in an answer or a page: its structured values, and the text's words, quoted parts and attribute values. */
function stringsOf(text: string, structured: unknown): string[] {
  const found = [JSON.stringify(structured), ...text.split(/[\s"'`<>(),;=]+/), ...[...text.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string)];
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.push(value);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(structured);
  return found.filter((word) => word.length > 0);
}

describe("the audit of a page's decisions", () => {
  it("records that the person confirmed or declined through the page, and verify-audit counts where confirmations came from", async () => {
    const records = readFileSync(workspace.context.auditPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; person?: unknown; details?: { through?: string } });
    const decided = records.filter((record) => record.event === "confirmed" || record.event === "declined");
    expect(decided.map((record) => [record.event, record.details?.through])).toEqual([
      ["confirmed", "page"],
      ["declined", "page"],
      ["confirmed", "page"],
      ["confirmed", "page"],
    ]);
    const lines: string[] = [];
    expect(await verifyAuditCommand(workspace.context.auditPath, (line) => lines.push(line))).toBe(0);
    expect(lines.find((line) => line.startsWith("  not signed in"))).toMatch(/; confirmed through 3 page$/);
  });
});

describe("the confirmation page of a stdio server (the bundle, CUSTODY_CONFIRMATION=person)", () => {
  it("opens its loopback listener on demand; the person's yes sends once", async () => {
    const openedFile = join(tempDir("custody-mcp-opened-"), "opened.txt");
    const opener = `${process.execPath} ${join(import.meta.dirname, "harness", "capture-opener.mjs")}`;
    const env = {
      PATH: process.env.PATH ?? "",
      ...childHome(),
      CUSTODY_BASE_URL: workspace.recorder.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_CONFIRMATION: "person",
      CUSTODY_CONFIRM_OPENER: opener,
      CUSTODY_TEST_OPENED: openedFile,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
    };
    const model = new Client({ name: "model", version: "0" });
    const transport = new StdioClientTransport({ command: process.execPath, args: [buildBundle()], env, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    await model.connect(transport);
    try {
      const args = await sendArgs("stdio page");
      const dry = await call(model, "create_transaction", args);
      expect(dry.token, dry.text).toBeUndefined();
      const reference = dry.structured.reference as string;
      const waiting = await call(model, "create_transaction", { ...args, reference });
      const shown = modelLink(waiting.text);
      expect(shown, waiting.text).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\/confirm\//);
      const link = await vi.waitFor(() => personLink(existsSync(openedFile) ? readFileSync(openedFile, "utf8").trim().split("\n") : [], shown));
      // The MCP client keeps the server's stderr (its logs, which a model may read): the person's key is not in it.
      expect(stderr).not.toContain(new URL(link).searchParams.get("key"));
      const page = await openPage(link, "stdio-bundle");
      const before = sends();
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("heading", { name: "Submitted" }).waitFor();
      expect(sends()).toBe(before + 1);
      expect((await call(model, "create_transaction", { ...args, reference })).structured.status).toBe("submitted");
      await page.close();
    } finally {
      await model.close();
    }
  }, 120_000);
});

describe("the confirmation page on the HTTP server", () => {
  it("is served at the server's own origin, Host checked", async () => {
    http = await startHttpServer(
      workspace.context.ctx,
      { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null },
      () => {},
    );
    const { model, link, shown } = await waitingWrite("http page");
    try {
      expect(new URL(shown).origin).toBe(new URL(http.url).origin);
      expect(new URL(link).origin).toBe(new URL(http.url).origin);
      const page = await openPage(link, "http-server");
      expect(await page.getByRole("button", { name: "Confirm" }).count()).toBe(1);
      await page.close();
      expect((await rawPost(link, "", { Host: "evil.example" })).status).toBe(403);
    } finally {
      await model.close();
    }
  });
});
