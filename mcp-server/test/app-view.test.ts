import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditCommand } from "../src/audit/verify-audit-command.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import type { TestContext } from "./harness/mcp-harness.js";
import { recordedWorkspace } from "./harness/recorded-workspace.js";
import { connectViewClient, openViewHost, viewHtml, type ViewHost } from "./harness/view-host.js";

// The confirmation view (an MCP App) in a real browser (Debian's Chromium through playwright-core),
// inside a host page that renders it with the package's AppBridge, whose tool calls go through a
// real MCP client to the real server on the emulator: the dry run's view sends once on Confirm,
// nothing on Decline, nothing more on a second Confirm, nothing for an expired dry run; the token
// reaches the view only in the answer's `_meta`, never in what the model reads.

const TTL_MS = 120_000;
const workspace = recordedWorkspace({ browser: "app-view" });
const { sendArgs, sends } = workspace;

type ViewMeta = { tool: string; token: string; question: string; body: string };

function viewMetaOf(result: CallToolResult): ViewMeta {
  return (result._meta as Record<string, ViewMeta>)["custody/confirm"] as ViewMeta;
}

/** What a host hands the model of an answer: its content and its structured content, never its `_meta`. */
function shownToModel(result: CallToolResult): string {
  return JSON.stringify([result.content, result.structuredContent]);
}

/** A screenshot of the view's frame as the host shows it. */
async function shot(frame: Frame, name: string): Promise<void> {
  await (await frame.frameElement()).screenshot({ path: join(workspace.shots, `${name}.png`) });
}

async function outcome(frame: Frame): Promise<string> {
  const shown = frame.locator("#outcome");
  await expect.poll(async () => (await shown.innerText()).replace(/…$/, ""), { timeout: 15_000 }).toMatch(/^(Submitted|Declined|Not sent)/);
  return shown.innerText();
}

function modes(mode: "token" | "person") {
  let context: TestContext;
  let session: Awaited<ReturnType<typeof connectViewClient>>;
  let host: ViewHost;
  beforeAll(async () => {
    context = workspace.contextWith({ policy: { confirmation: mode }, tokenTtlMs: TTL_MS });
    session = await connectViewClient(context.ctx);
    host = await openViewHost(workspace.browser, session.client);
  });
  afterAll(async () => {
    await host?.page.close();
    await session?.close();
  });

  /** The model's dry run through the host's client, and the view the host renders with it. */
  async function viewedDryRun(note: string) {
    const args = await sendArgs(note);
    const dry = (await session.client.callTool({ name: "create_transaction", arguments: args })) as CallToolResult;
    expect((dry.structuredContent as { status?: string }).status, JSON.stringify(dry.content)).toBe("dry_run");
    const frame = await host.render(args, dry);
    await frame.getByRole("button", { name: "Confirm" }).waitFor();
    return { args, dry, frame, reference: (dry.structuredContent as { reference: string }).reference };
  }

  it("renders what moves and the exact body; Confirm sends once; a second Confirm sends nothing more", async () => {
    const { dry, frame, reference } = await viewedDryRun(`view yes ${mode}`);
    const token = viewMetaOf(dry).token;
    expect(token).toMatch(/^v2\./);
    expect(shownToModel(dry)).not.toContain(token);
    const shown = await frame.locator("main").innerText();
    for (const label of ["Account", "Amount", "base units", "Fee", "Balance", "Request: POST", viewMetaOf(dry).body, "Expires: "])
      expect(shown).toContain(label);
    expect(shown).toContain(`An assistant prepared this write, as operator ${DEMO.treasuryBot}.`);
    // No max_fees was given: the one the request carries was proposed from the estimate, as the form says.
    expect((dry.structuredContent as { amounts: Record<string, unknown> }).amounts).toHaveProperty("max_fees");
    expect(shown).toMatch(/max_fees\s+[^\n]* base units\), proposed from the fee estimate/);
    await shot(frame, `${mode}-confirm`);
    const before = sends();
    await frame.getByRole("button", { name: "Confirm" }).click();
    expect(await outcome(frame)).toMatch(/^Submitted/);
    await shot(frame, `${mode}-submitted`);
    expect(sends()).toBe(before + 1);
    expect((await transactionsWithLabel(workspace.emulator, reference)).length).toBe(1);
    expect(host.calls.at(-1)?.name).toBe("decide_write");
    // The host renders the same answer again (a conversation reopened): its Confirm sends nothing more.
    const again = await host.render({}, dry);
    await again.getByRole("button", { name: "Confirm" }).click();
    expect(await outcome(again)).toMatch(/^Not sent/);
    expect(sends()).toBe(before + 1);
  });

  it("Decline sends nothing, and the dry run cannot be confirmed after it", async () => {
    const { dry, frame, reference } = await viewedDryRun(`view no ${mode}`);
    const before = sends();
    await frame.getByRole("button", { name: "Decline" }).click();
    expect(await outcome(frame)).toMatch(/^Declined/);
    await shot(frame, `${mode}-declined`);
    const again = await host.render({}, dry);
    await again.getByRole("button", { name: "Confirm" }).click();
    expect(await outcome(again)).toMatch(/^Not sent/);
    expect(sends()).toBe(before);
    expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
  });

  it("sends nothing for a dry run that expired while the view was open", async () => {
    const { frame, reference } = await viewedDryRun(`view expired ${mode}`);
    context.clock.advance(TTL_MS + 1);
    const before = sends();
    await frame.getByRole("button", { name: "Confirm" }).click();
    expect(await outcome(frame)).toMatch(/^Not sent/);
    await shot(frame, `${mode}-expired`);
    expect(sends()).toBe(before);
    expect(await transactionsWithLabel(workspace.emulator, reference)).toEqual([]);
  });

  it("audits the view's decisions as the person's, through the view, and verify-audit counts them", async () => {
    const records = readFileSync(context.auditPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; details?: { through?: string } });
    const decided = records.filter((record) => record.event === "confirmed" || record.event === "declined");
    expect(decided.map((record) => [record.event, record.details?.through])).toEqual([
      ["confirmed", "view"],
      ["declined", "view"],
    ]);
    const lines: string[] = [];
    expect(await verifyAuditCommand(context.auditPath, (line) => lines.push(line))).toBe(0);
    expect(lines.find((line) => line.startsWith("  not signed in"))).toMatch(/; confirmed through 1 view$/);
  });
}

describe("the confirmation view, token mode", () => modes("token"));
describe("the confirmation view, person mode", () => modes("person"));

describe("the view's resource", () => {
  it("is an MCP App's HTML with a content security policy that allows no domain, and its own document allows nothing else", async () => {
    const context = workspace.contextWith();
    const session = await connectViewClient(context.ctx);
    const host = await openViewHost(workspace.browser, session.client);
    try {
      const read = await session.client.readResource({ uri: "ui://custody/confirm" });
      const content = read.contents[0] as { mimeType?: string; _meta?: { ui?: { csp?: Record<string, string[]> } } };
      expect(content.mimeType).toBe("text/html;profile=mcp-app");
      const csp = content._meta?.ui?.csp ?? {};
      expect(Object.keys(csp).sort()).toEqual(["baseUriDomains", "connectDomains", "frameDomains", "resourceDomains"]);
      for (const domains of Object.values(csp)) expect(domains).toEqual([]);
      const html = await viewHtml(session.client);
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
      expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[^' ]+'; style-src 'sha256-[^' ]+';/);
      expect(policy).toContain("form-action 'none'");
      // Inside the rendered view, the policy holds: no request leaves it.
      const args = await sendArgs("view csp");
      const dry = (await session.client.callTool({ name: "create_transaction", arguments: args })) as CallToolResult;
      const frame = await host.render(args, dry);
      await frame.getByRole("button", { name: "Confirm" }).waitFor();
      const before = workspace.recorder.requests.length;
      const fetched = await frame.evaluate(
        (url) =>
          fetch(url).then(
            () => "fetched",
            (error: Error) => `refused: ${error.message}`,
          ),
        `${workspace.recorder.baseUrl}/v1/accounts`,
      );
      expect(fetched).toMatch(/^refused/);
      expect(workspace.recorder.requests.length).toBe(before);
    } finally {
      await host.page.close();
      await session.close();
    }
  });
});

/** A token-mode server's view client and its host page, for one test. */
async function withViewHost(test: (session: Awaited<ReturnType<typeof connectViewClient>>, host: ViewHost) => Promise<void>): Promise<void> {
  const context = workspace.contextWith({ tokenTtlMs: TTL_MS });
  const session = await connectViewClient(context.ctx);
  const host = await openViewHost(workspace.browser, session.client);
  try {
    await test(session, host);
  } finally {
    await host.page.close();
    await session.close();
  }
}

describe("a write sent again on purpose, in the view", () => {
  it("says first, before what moves, that it sends again what was already sent, and names the earlier write", async () => {
    await withViewHost(async (session, host) => {
      const args = await sendArgs("view repeat");
      const first = (await session.client.callTool({ name: "create_transaction", arguments: args })) as CallToolResult;
      const firstView = await host.render(args, first);
      await firstView.getByRole("button", { name: "Confirm" }).click();
      expect(await outcome(firstView)).toMatch(/^Submitted/);
      const [sent] = await transactionsWithLabel(workspace.emulator, (first.structuredContent as { reference: string }).reference);
      const repeat = { ...args, repeat_of: String(sent) };
      const again = (await session.client.callTool({ name: "create_transaction", arguments: repeat })) as CallToolResult;
      expect((again.structuredContent as { status?: string }).status, JSON.stringify(again.content)).toBe("dry_run");
      const frame = await host.render(repeat, again);
      await frame.getByRole("button", { name: "Confirm" }).waitFor();
      await shot(frame, "repeat");
      const shown = await frame.locator("main").innerText();
      expect(shown).toMatch(/^Confirm: Send funds\s+THIS SENDS AGAIN what was already sent\.\s/);
      expect(shown).toMatch(new RegExp(`Repeats: sent again on purpose: [^\\n]*${String(sent)}`));
      expect(shown.indexOf("Repeats: ")).toBeGreaterThan(shown.indexOf("Balance "));
    });
  });
});

describe("the dates a write leads to, in the view", () => {
  it("shows when an unbond's DOT unlock, as the dry run gives it", async () => {
    await withViewHost(async (session, host) => {
      const args = { account: DEMO.dotStaking, amount: "1", unit: "DOT" };
      const dry = (await session.client.callTool({ name: "polkadot_unbond", arguments: args })) as CallToolResult;
      const answer = dry.structuredContent as { status?: string; dates?: { unlocks_at?: string } };
      expect(answer.status, JSON.stringify(dry.content)).toBe("dry_run");
      expect(answer.dates?.unlocks_at).toMatch(/^\d{4}-/);
      const frame = await host.render(args, dry);
      await frame.getByRole("button", { name: "Confirm" }).waitFor();
      await shot(frame, "unbond-dates");
      const shown = await frame.locator("main").innerText();
      expect(shown).toContain(`unlocks_at ${answer.dates?.unlocks_at as string}`);
      expect(shown.indexOf("unlocks_at")).toBeLessThan(shown.indexOf("Request: "));
    });
  });
});

describe("governance, in the view", () => {
  it("names the approvals a write will wait for, as the dry run gives them", async () => {
    await withViewHost(async (session, host) => {
      const recipient = (await accountNamed(workspace.emulator, DEMO.solTreasury)).address;
      const args = { account: DEMO.solCold, recipient, amount: "0.01", unit: "SOL" };
      const dry = (await session.client.callTool({ name: "create_transaction", arguments: args })) as CallToolResult;
      const answer = dry.structuredContent as { status?: string; governance?: { outcome?: string } };
      expect(answer.status, JSON.stringify(dry.content)).toBe("dry_run");
      expect(answer.governance?.outcome).toBe("pending_approval");
      const frame = await host.render(args, dry);
      await frame.getByRole("button", { name: "Confirm" }).waitFor();
      await shot(frame, "governance");
      const shown = await frame.locator("main").innerText();
      expect(shown).toContain("Governance: pending_approval: step 2 needs 1 more approval(s) from dana.approver, erin.approver");
    });
  });
});
