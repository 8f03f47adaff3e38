import { readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTransaction } from "../src/tools/transactions/create-transaction.js";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { blockingCodes, dryRunAndConfirm } from "./harness/guarded-write.js";
import { call, connectHarness, startTestEmulator, type HarnessOptions } from "./harness/mcp-harness.js";

let emulator: RunningEmulator;
let recipient: string;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  await resetWorkspace(emulator);
  recipient = (await accountNamed(emulator, DEMO.solCold)).address;
});

async function withServer<T>(options: HarnessOptions, run: (harness: Awaited<ReturnType<typeof connectHarness>>) => Promise<T>): Promise<T> {
  const harness = await connectHarness(emulator, options);
  try {
    return await run(harness);
  } finally {
    await harness.close();
  }
}

const listedNames = (options: HarnessOptions) => withServer(options, async ({ client }) => (await client.listTools()).tools.map((tool) => tool.name));
const readOnlyNames = ALL_TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);

describe("which tools are registered", () => {
  it("read-only mode registers only the read-only tools, and a write tool cannot be called", async () => {
    expect((await listedNames({ policy: { read_only: true } })).sort()).toEqual([...readOnlyNames].sort());
    await withServer({ policy: { read_only: true } }, async ({ client }) => {
      const refused = await call(client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/create_transaction not found/);
    });
  });

  it("toolsets enable whole areas; deny and allow name tools", async () => {
    expect((await listedNames({ policy: { toolsets: ["polkadot_staking"] } })).sort()).toEqual(
      ["polkadot_bond_extra", "polkadot_rebond", "polkadot_set_payee", "polkadot_unbond", "polkadot_withdraw_unbonded"].sort(),
    );
    const denied = await listedNames({ policy: { tools: { deny: ["create_transaction", "approve_transaction"] } } });
    expect(denied).not.toContain("create_transaction");
    expect(denied).not.toContain("approve_transaction");
    expect(denied).toContain("polkadot_unbond");
    expect(await listedNames({ policy: { tools: { allow: ["health_check", "list_accounts"] } } })).toEqual(["health_check", "list_accounts"]);
  });

  it("a handler refuses on its own, and audits it, when the policy does not allow its tool: hiding is not enough", async () => {
    await withServer({ policy: { read_only: true } }, async (harness) => {
      const controller = new AbortController();
      const result = await createTransaction.handle(
        { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL" },
        { ctx: harness.ctx, session: undefined as never, signal: controller.signal },
      );
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: "refused", error: expect.stringContaining("read-only") });
      const events = readFileSync(harness.auditPath, "utf8").trim().split("\n").map((line) => JSON.parse(line).event);
      expect(events).toEqual(["refused"]);
    });
  });
});

describe("limits and allow-lists", () => {
  const send = (overrides: Record<string, unknown> = {}) => ({ account: DEMO.solTreasury, recipient, amount: "1.5", unit: "SOL", ...overrides });

  it("blocks an amount above the maximum per transaction", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_transaction: { amount: "1", unit: "SOL" } } } } }, async ({ client }) => {
      const dry = await call(client, "create_transaction", send());
      expect(dry.structured.status).toBe("blocked");
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_MAX_PER_TRANSACTION"]);
      expect((await call(client, "create_transaction", send({ amount: "1" }))).structured.status).toBe("dry_run");
    });
  });

  it("blocks a write that would bring the last 24 hours above the daily maximum, counted from the audit log", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { base_units: "2000000000" } } } } }, async (harness) => {
      const { confirmed } = await dryRunAndConfirm(harness.client, "create_transaction", send());
      expect(confirmed.structured.status).toBe("submitted");
      const second = await call(harness.client, "create_transaction", send({ amount: "1" }));
      expect(blockingCodes(second.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      expect((await call(harness.client, "create_transaction", send({ amount: "0.5" }))).structured.status).toBe("dry_run");
      harness.clock.advance(24 * 60 * 60 * 1000 + 1000);
      expect((await call(harness.client, "create_transaction", send({ amount: "1" }))).structured.status).toBe("dry_run");
    });
  });

  it("blocks at confirmation when another write used the daily allowance since the dry run", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } } }, async (harness) => {
      const first = await call(harness.client, "create_transaction", send());
      const second = await call(harness.client, "create_transaction", send({ amount: "1" }));
      await call(harness.client, "create_transaction", send({ confirmation_token: first.structured.confirmation_token }));
      const late = await call(harness.client, "create_transaction", send({ amount: "1", confirmation_token: second.structured.confirmation_token }));
      expect(late.structured.status).toBe("blocked");
      expect(blockingCodes(late.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      expect(await transactionsWithLabel(emulator, second.structured.reference as string)).toEqual([]);
    });
  });

  it("counts a write whose answer was lost toward the daily maximum, even when its look-up found nothing", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } } }, async (harness) => {
      const dry = await call(harness.client, "create_transaction", send());
      await control(emulator, "PUT", "/faults", { drop_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      const lost = await call(harness.client, "create_transaction", send({ confirmation_token: dry.structured.confirmation_token }));
      expect(lost.structured.status).toBe("not_found");
      const records = readFileSync(harness.auditPath, "utf8").trim().split("\n").map((line) => JSON.parse(line));
      expect(records.slice(-2)).toMatchObject([
        { event: "ambiguous", details: { currency: "solana_testnet", policy_amount: "1500000000", reference: dry.structured.reference } },
        { event: "resolved", details: { outcome: "not_found", reference: dry.structured.reference } },
      ]);
      const next = await call(harness.client, "create_transaction", send({ amount: "1" }));
      expect(blockingCodes(next.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      expect((await call(harness.client, "create_transaction", send({ amount: "0.5" }))).structured.status).toBe("dry_run");
    });
  });

  it("blocks a recipient the allow-list does not hold", async () => {
    await withServer({ policy: { allowed_recipients: ["SomeOtherAddress111111111111111111111111111"] } }, async ({ client }) => {
      expect(blockingCodes((await call(client, "create_transaction", send())).structured)).toEqual(["POLICY_RECIPIENT_NOT_ALLOWED"]);
    });
    await withServer({ policy: { allowed_recipients: [recipient] } }, async ({ client }) => {
      expect((await call(client, "create_transaction", send())).structured.status).toBe("dry_run");
    });
  });

  it("blocks a validator the allow-list does not hold", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_validators: ["3uJmac161Gdopz4zM8ky7h3Us7fiTurSc2qY5dYGS5RW"] } }, async ({ client }) => {
      const dry = await call(client, "solana_create_stake", { account: DEMO.solTreasury, amount: "5", unit: "SOL", validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" });
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_VALIDATOR_NOT_ALLOWED"]);
    });
  });

  it("blocks a contract the allow-list does not hold", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_contracts: [DEMO.usdcContract] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", { account: DEMO.ethStaking, contract: DEMO.kilnContract, contract_data: DEMO.depositCallData, amount: "32", unit: "ETH" });
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_CONTRACT_NOT_ALLOWED"]);
    });
  });
});
