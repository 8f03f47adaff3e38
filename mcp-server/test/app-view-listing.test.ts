import { join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { isToolVisibilityAppOnly } from "@modelcontextprotocol/ext-apps/app-bridge";
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { writeSpecOfTool } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "./harness/built-bundle.js";
import { resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, connectSession, startTestEmulator, testContext } from "./harness/mcp-harness.js";
import { modernClient } from "./harness/modern-client.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";
import { connectViewClient } from "./harness/view-host.js";

// Which clients are shown the confirmation view (those declaring the MCP Apps extension), what
// they are listed, and what the view's app-only tool accepts: no path from what the model reads.

const VIEW = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
});
afterAll(async () => {
  await emulator?.close();
});

let sent = 0;
const sendArgs = async (note: string) => ({
  account: DEMO.solTreasury,
  recipient: (await accountNamed(emulator, DEMO.solCold)).address,
  amount: `0.0${(sent += 1).toString().padStart(2, "0")}9`,
  unit: "SOL",
  note,
});
const viewToken = (result: CallToolResult) =>
  (result._meta as Record<string, { token: string; question: string }>)["custody/confirm"] as { token: string; question: string };

describe("tools/list", () => {
  it("links each guarded write tool to the view and lists the app-only tool only for a client that declares the MCP Apps extension", async () => {
    const { ctx } = testContext(emulator);
    const plain = await connectSession(ctx);
    const apps = await connectViewClient(ctx);
    try {
      expect((await plain.client.listResources()).resources.map((resource) => resource.uri)).toContain("ui://custody/confirm");
      const plainTools = (await plain.client.listTools()).tools;
      expect(plainTools.filter((tool) => tool._meta !== undefined)).toEqual([]);
      expect(plainTools.map((tool) => tool.name)).not.toContain("decide_write");
      const appsTools = (await apps.client.listTools()).tools;
      const linked = appsTools.filter((tool) => tool._meta !== undefined);
      expect(
        linked
          .filter((tool) => tool.name !== "decide_write")
          .map((tool) => tool.name)
          .sort(),
      ).toEqual(
        appsTools
          .filter((tool) => writeSpecOfTool(tool.name) !== undefined)
          .map((tool) => tool.name)
          .sort(),
      );
      for (const tool of linked.filter((tool) => tool.name !== "decide_write"))
        expect(tool._meta, tool.name).toEqual({ ui: { resourceUri: "ui://custody/confirm" } });
      expect(appsTools.filter((tool) => isToolVisibilityAppOnly(tool)).map((tool) => tool.name)).toEqual(["decide_write"]);
      // Without the app-only tool, the same tools as a plain client's.
      expect(appsTools.filter((tool) => !isToolVisibilityAppOnly(tool)).map(({ _meta, ...tool }) => tool)).toEqual(plainTools);
      await expect(call(plain.client, "decide_write", { tool: "create_transaction", token: "v2.x", question: "x", decision: "confirm" })).rejects.toMatchObject(
        {
          code: -32602,
          message: expect.stringMatching(/Tool decide_write not found/),
        },
      );
    } finally {
      await plain.close();
      await apps.close();
    }
  });

  it("lists no app-only tool and no view where the policy allows no write", async () => {
    const { ctx } = testContext(emulator, { policy: { read_only: true } });
    const apps = await connectViewClient(ctx);
    try {
      expect((await apps.client.listTools()).tools.filter((tool) => tool._meta !== undefined)).toEqual([]);
      expect((await apps.client.listResources()).resources.map((resource) => resource.uri)).not.toContain("ui://custody/confirm");
    } finally {
      await apps.close();
    }
  });
});

describe("what the model can do with what it reads", () => {
  it("token mode with a view: the dry run's text carries no token, and the model has nothing that confirms", async () => {
    const { ctx } = testContext(emulator);
    const apps = await connectViewClient(ctx);
    try {
      const args = await sendArgs("view token mode");
      const dry = await call(apps.client, "create_transaction", args);
      expect(dry.structured.status).toBe("dry_run");
      expect(dry.token).toBeUndefined();
      expect(dry.text).toContain("confirmation view");
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
    } finally {
      await apps.close();
    }
  });

  it("person mode: the view's token confirms nothing through a write tool; decide_write refuses a token of another tool or altered", async () => {
    const { ctx } = testContext(emulator, { policy: { confirmation: "person" } });
    const apps = await connectViewClient(ctx);
    try {
      const args = await sendArgs("view person mode");
      const dry = (await apps.client.callTool({ name: "create_transaction", arguments: args })) as CallToolResult;
      const { token, question } = viewToken(dry);
      const reference = (dry.structuredContent as { reference: string }).reference;
      expect(JSON.stringify([dry.content, dry.structuredContent])).not.toContain(token);
      const withToken = await call(apps.client, "create_transaction", { ...args, confirmation_token: token });
      expect(withToken.structured).toMatchObject({ status: "refused", reason: "confirmation_mode" });
      const otherTool = await call(apps.client, "decide_write", { tool: "approve_transaction", token, question, decision: "confirm" });
      expect(otherTool.structured.status).toBe("refused");
      const altered = await call(apps.client, "decide_write", { tool: "create_transaction", token: `${token.slice(0, -2)}AA`, question, decision: "confirm" });
      expect(altered.structured.status).toBe("refused");
      expect(await transactionsWithLabel(emulator, reference)).toEqual([]);
      // The question the view showed: a yes for another one sends nothing.
      const otherQuestion = await call(apps.client, "decide_write", { tool: "create_transaction", token, question: "0".repeat(64), decision: "confirm" });
      expect(otherQuestion.structured.status).toBe("declined");
      expect(await transactionsWithLabel(emulator, reference)).toEqual([]);
    } finally {
      await apps.close();
    }
  });
});

describe("signed-in people", () => {
  it("a view's token confirms for the person who ran the dry run only: another person's view sends nothing and uses nothing up", async () => {
    const team = testContext(emulator, { policy: { confirmation: "person" } });
    const hers = await connectViewClient(team.ctx, { subject: "carla", groups: [], roles: [] });
    const his = await connectViewClient(team.ctx, { subject: "paul", groups: [], roles: [] });
    try {
      const dry = (await hers.client.callTool({ name: "create_transaction", arguments: await sendArgs("view people") })) as CallToolResult;
      const reference = (dry.structuredContent as { reference: string }).reference;
      const { token, question } = viewToken(dry);
      const decide = { tool: "create_transaction", token, question, decision: "confirm" };
      expect((await call(his.client, "decide_write", decide)).structured.status).toBe("refused");
      expect(await transactionsWithLabel(emulator, reference)).toEqual([]);
      const mine = await call(hers.client, "decide_write", decide);
      expect(mine.structured.status, mine.text).toBe("submitted");
      expect((await transactionsWithLabel(emulator, reference)).length).toBe(1);
    } finally {
      await hers.close();
      await his.close();
    }
  });
});

describe("every string the model reads, fed to the view's tool", () => {
  it("confirms nothing (person mode, a client that shows views): only the view's _meta carries what confirms", async () => {
    const { ctx } = testContext(emulator, { policy: { confirmation: "person" } });
    const apps = await connectViewClient(ctx);
    try {
      const pool = new Set<string>();
      const questions = new Set<string>();
      const references: string[] = [];
      for (const note of ["pool one", "pool two"]) {
        const args = await sendArgs(note);
        const dry = (await apps.client.callTool({ name: "create_transaction", arguments: args })) as CallToolResult;
        questions.add(viewToken(dry).question);
        references.push((dry.structuredContent as { reference: string }).reference);
        const waiting = await apps.client.callTool({ name: "create_transaction", arguments: { ...args, reference: references.at(-1) } });
        for (const answer of [dry, waiting] as CallToolResult[])
          stringsOf(JSON.stringify([answer.content, answer.structuredContent])).forEach((text) => pool.add(text));
      }
      for (const token of pool) {
        for (const question of questions) {
          const answer = await call(apps.client, "decide_write", { tool: "create_transaction", token: token.slice(0, 1024), question, decision: "confirm" });
          expect(answer.structured.status, answer.text).not.toBe("submitted");
        }
      }
      for (const reference of references) expect(await transactionsWithLabel(emulator, reference)).toEqual([]);
    } finally {
      await apps.close();
    }
  });
});

/** Every string of an answer as a model reads it: its JSON's string values, words and quoted parts. */
function stringsOf(json: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.push(value, ...value.split(/[\s"'`<>(),;]+/), ...[...value.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string));
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(JSON.parse(json));
  return found.filter((text) => text.length > 0);
}

describe("the bundle, on 2026-07-28 over stdio", () => {
  let client: Client;
  beforeAll(async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      ...childHome(),
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
    };
    client = modernClient(VIEW);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [buildBundle()], env, stderr: "pipe" }));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it("serves the view it was built with, links it from the capabilities each request declares, and the view's Confirm sends once", async () => {
    const listed = (await client.listTools()).tools;
    expect(listed.find((tool) => tool.name === "create_transaction")?._meta).toEqual({ ui: { resourceUri: "ui://custody/confirm" } });
    const read = await client.readResource({ uri: "ui://custody/confirm" });
    expect((read.contents[0] as { text: string }).text).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\';');
    const dry = (await client.callTool({ name: "create_transaction", arguments: await sendArgs("view bundle") })) as CallToolResult;
    const reference = (dry.structuredContent as { reference: string }).reference;
    const { token, question } = viewToken(dry);
    const decide = { tool: "create_transaction", token, question, decision: "confirm" };
    const first = await call(client, "decide_write", decide);
    expect(first.structured.status, first.text).toBe("submitted");
    expect((await call(client, "decide_write", decide)).structured.status).toBe("refused");
    expect((await transactionsWithLabel(emulator, reference)).length).toBe(1);
  });
});
