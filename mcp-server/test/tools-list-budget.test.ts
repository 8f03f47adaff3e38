import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "@custody/emulator";
import type { Tool } from "@modelcontextprotocol/client";
import { isToolVisibilityAppOnly } from "@modelcontextprotocol/ext-apps/app-bridge";
import { connectHarness, startTestEmulator, type Harness } from "./harness/mcp-harness.js";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { connectViewClient } from "./harness/view-host.js";

const BUDGET_TOKENS = 6000;
const BUDGET_BYTES_PER_TOOL = 700;
/**
 * The whole answer on the wire, output schemas and icons included: read by the client once a session, not by the model.
 * Raised from 110,000 for `stake_uid` in every write tool's submitted transaction (issue 21: a stake's confirmation gives the new stake's uid),
 * then from 110,500 for `created_by: { id, username }` in the seven answers that give transactions or users and list_activity's look-ups (issue 21),
 * then from 112,000 for `confirmation_token` in the write tools' output schema (issue 21: a token-mode dry run gives it in structuredContent).
 */
const BUDGET_WIRE_BYTES = 112_500;
/**
 * A client that declares the MCP Apps extension reads, besides, each guarded write tool's link to
 * the confirmation view (`"_meta":{"ui":{"resourceUri":"ui://custody/confirm"}}`, 54 bytes, 14
 * tools): its host reads it, no model does. The app-only tool is counted out, as hosts show it to no model.
 */
const VIEW_LINKS_BYTES = 800;

/** What a host may show a model of a tool (issue 21): its name, title, description, input schema and annotations (not its output schema or icons). */
function shownToModel(tool: Tool): unknown {
  const { name, title, description, inputSchema, annotations } = tool;
  return { name, title, description, inputSchema, annotations };
}

describe("tools/list", () => {
  let emulator: RunningEmulator;
  let harness: Harness;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    harness = await connectHarness(emulator);
  });
  afterAll(async () => {
    await harness.close();
    await emulator.close();
  });

  it(
    `shows a model at most ${BUDGET_TOKENS} tokens (bytes / 4) and ${BUDGET_BYTES_PER_TOOL} bytes per tool ` +
      `on average with every tool registered; ${BUDGET_WIRE_BYTES} bytes on the wire`,
    async () => {
      const list = await harness.client.listTools();
      expect(list.tools).toHaveLength(ALL_TOOLS.length);
      const shown = list.tools.map((tool) => Buffer.byteLength(JSON.stringify(shownToModel(tool)), "utf8"));
      const bytes = shown.reduce((sum, size) => sum + size, 0);
      expect(bytes / 4).toBeLessThanOrEqual(BUDGET_TOKENS);
      expect(bytes / list.tools.length).toBeLessThanOrEqual(BUDGET_BYTES_PER_TOOL);
      expect(Buffer.byteLength(JSON.stringify(list), "utf8")).toBeLessThanOrEqual(BUDGET_WIRE_BYTES);
    },
  );

  it(
    "shows a model the same with the views linked (a client declaring the MCP Apps extension); " +
      `${BUDGET_WIRE_BYTES} + ${VIEW_LINKS_BYTES} bytes on the wire without the app-only tool`,
    async () => {
      const apps = await connectViewClient(harness.ctx);
      try {
        const list = await apps.client.listTools();
        const forModels = list.tools.filter((tool) => !isToolVisibilityAppOnly(tool));
        expect(forModels).toHaveLength(ALL_TOOLS.length);
        const plain = await harness.client.listTools();
        expect(forModels.map(shownToModel)).toEqual(plain.tools.map(shownToModel));
        expect(Buffer.byteLength(JSON.stringify({ ...list, tools: forModels }), "utf8")).toBeLessThanOrEqual(BUDGET_WIRE_BYTES + VIEW_LINKS_BYTES);
      } finally {
        await apps.close();
      }
    },
  );

  it("lists the issue's tool names, each with title, description, output schema and all four hints stated", async () => {
    const list = await harness.client.listTools();
    expect(list.tools.map((tool) => tool.name).sort()).toEqual(
      [
        "health_check",
        "list_users",
        "list_accounts",
        "get_account",
        "get_account_balance",
        "get_holdings",
        "list_pending_approvals",
        "list_activity",
        "get_transaction",
        "get_transaction_history",
        "search_transactions",
        "get_currency",
        "list_tokens",
        "list_solana_stakes",
        "get_solana_stake",
        "list_ethereum_stakes",
        "sync_account",
        "create_operator",
        "register_operator",
        "create_transaction",
        "approve_transaction",
        "solana_create_stake",
        "solana_deactivate_stake",
        "solana_withdraw_stake",
        "solana_delegate_stake",
        "solana_split_stake",
        "solana_split_deactivate_stake",
        "polkadot_bond_extra",
        "polkadot_unbond",
        "polkadot_rebond",
        "polkadot_withdraw_unbonded",
        "polkadot_set_payee",
        "ethereum_stake",
        "estimate_fees",
        "get_request_status",
      ].sort(),
    );
    for (const tool of list.tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema).not.toHaveProperty("anyOf");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe("boolean");
      }
    }
  });

  it("shows an icon for the server and one per toolset, each an SVG data: URI (nothing to fetch)", async () => {
    const svg = expect.objectContaining({ src: expect.stringMatching(/^data:image\/svg\+xml;base64,/), mimeType: "image/svg+xml" });
    expect(harness.client.getServerVersion()?.icons).toEqual([svg]);
    const list = await harness.client.listTools();
    const iconOf = new Map<string, string>();
    for (const tool of list.tools) {
      expect(tool.icons, tool.name).toEqual([svg]);
      const toolset = ALL_TOOLS.find((known) => known.name === tool.name)?.toolset ?? "";
      const src = tool.icons?.[0]?.src ?? "";
      expect(iconOf.get(toolset) ?? src, `${tool.name} shows its toolset's icon`).toBe(src);
      iconOf.set(toolset, src);
    }
    expect(new Set(iconOf.values()).size).toBe(6);
  });
});
