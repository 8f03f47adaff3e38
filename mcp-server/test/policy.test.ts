import { readFileSync } from "node:fs";
import { AuditLog, encodeDepositCall, type TransactionRequest } from "@custody/shared";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTransaction } from "../src/tools/transactions/create-transaction.js";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, depositCallData, directClient, ownDepositCallData, transactionsWithLabel } from "./harness/demo-workspace.js";
import { blockingCodes, dryRunAndConfirm, passedCodes } from "./harness/guarded-write.js";
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

/** The account's smart-contract rule: staking-bot creates, treasury-bot approves, with this whitelist. */
async function contractRule(name: string, whitelist: string[]): Promise<void> {
  const account = await accountNamed(emulator, name);
  await control(emulator, "PUT", `/accounts/${account.id}/governance`, {
    ...account.governance_rules,
    smart_contract: {
      creators: [{ username: DEMO.stakingBot, is_api: true }],
      steps: [{ quorum: 1, approvers: [{ username: DEMO.treasuryBot, is_api: true }] }],
      whitelist,
    },
  });
}

const listedNames = (options: HarnessOptions) => withServer(options, async ({ client }) => (await client.listTools()).tools.map((tool) => tool.name));
const readOnlyNames = ALL_TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);

describe("which tools are registered", () => {
  it("read-only mode registers only the read-only tools, and a write tool cannot be called", async () => {
    expect((await listedNames({ policy: { read_only: true } })).sort()).toEqual([...readOnlyNames].sort());
    await withServer({ policy: { read_only: true } }, async ({ client }) => {
      // A tool the session does not have: a protocol error (-32602), as the spec has it for an unknown tool.
      await expect(call(client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL" })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/create_transaction not found/),
      });
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
        {
          ctx: harness.ctx,
          session: undefined as never,
          input: { canAsk: false, opensUrl: false, showsViews: false, responses: undefined, state: undefined },
          person: null,
          signal: controller.signal,
          progress: () => {},
          written: () => {},
        },
      );
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: "refused", reason: "permission", error: expect.stringContaining("read-only") });
      const events = readFileSync(harness.auditPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).event);
      expect(events).toEqual(["sealed", "refused"]);
    });
  });
});

describe("limits and allow-lists", () => {
  // Limits apply to what a write commits: the amount plus max_fees (here 5000 lamports).
  const send = (overrides: Record<string, unknown> = {}) => ({
    account: DEMO.solTreasury,
    recipient,
    amount: "1.5",
    unit: "SOL",
    max_fees: "5000",
    max_fees_unit: "lamport",
    ...overrides,
  });

  it("blocks an amount above the maximum per transaction", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_transaction: { amount: "1", unit: "SOL" } } } } }, async ({ client }) => {
      const dry = await call(client, "create_transaction", send());
      expect(dry.structured.status).toBe("blocked");
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_MAX_PER_TRANSACTION"]);
      expect((await call(client, "create_transaction", send({ amount: "0.999995" }))).structured.status).toBe("dry_run");
      expect((await call(client, "create_transaction", send({ amount: "0.999995001" }))).structured.status).toBe("blocked");
    });
  });

  it("blocks a write that would bring the last 24 hours above the daily maximum, counted from the audit log", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { base_units: "2000000000" } } } } }, async (harness) => {
      const { confirmed } = await dryRunAndConfirm(harness.client, "create_transaction", send());
      expect(confirmed.structured.status).toBe("submitted");
      const second = await call(harness.client, "create_transaction", send({ amount: "1" }));
      expect(blockingCodes(second.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      expect((await call(harness.client, "create_transaction", send({ amount: "0.49999" }))).structured.status).toBe("dry_run");
      harness.clock.advance(24 * 60 * 60 * 1000 + 1000);
      expect((await call(harness.client, "create_transaction", send({ amount: "1" }))).structured.status).toBe("dry_run");
    });
  });

  it("blocks at confirmation when another write used the daily allowance since the dry run", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } } }, async (harness) => {
      const first = await call(harness.client, "create_transaction", send());
      const second = await call(harness.client, "create_transaction", send({ amount: "1" }));
      await call(harness.client, "create_transaction", send({ confirmation_token: first.token }));
      const late = await call(harness.client, "create_transaction", send({ amount: "1", confirmation_token: second.token }));
      expect(late.structured.status).toBe("blocked");
      expect(blockingCodes(late.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      expect(await transactionsWithLabel(emulator, second.structured.reference as string)).toEqual([]);
    });
  });

  it("lets only one of two concurrent confirmations through when together they would pass the daily maximum", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "1", unit: "SOL" } } } } }, async (harness) => {
      // Two different writes (an identical second dry run would void the first's token).
      const args = [send({ amount: "0.8" }), send({ amount: "0.7" })];
      const first = await call(harness.client, "create_transaction", args[0]);
      const second = await call(harness.client, "create_transaction", args[1]);
      expect([first.structured.status, second.structured.status]).toEqual(["dry_run", "dry_run"]);
      const answers = await Promise.all(
        [first, second].map((dry, index) => call(harness.client, "create_transaction", { ...args[index], confirmation_token: dry.token })),
      );
      expect(answers.map((answer) => answer.structured.status).sort()).toEqual(["blocked", "submitted"]);
      const refused = answers.find((answer) => answer.structured.status === "blocked");
      expect(blockingCodes(refused?.structured ?? {})).toEqual(["POLICY_MAX_PER_DAY"]);
      const sent = await Promise.all([first, second].map((dry) => transactionsWithLabel(emulator, dry.structured.reference as string)));
      expect(sent.map((ids) => ids.length).sort()).toEqual([0, 1]);
      const events = readFileSync(harness.auditPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; details?: { stage?: string } });
      expect(events.filter((record) => record.event === "reserved")).toHaveLength(1);
      expect(events.filter((record) => record.event === "blocked").length).toBe(1);
    });
  });

  it("re-reads the day once the person answered: another writer's reservation made while the person reads the form blocks it", async () => {
    let other: (() => void) | undefined;
    const elicit = () => {
      other?.();
      return { action: "accept" as const, content: { confirm: true } };
    };
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } }, elicit }, async (harness) => {
      // While the person reads the form, the extension (another writer of the same log) reserves 1 SOL.
      other = () =>
        void new AuditLog(harness.auditPath).append({
          event: "reserved",
          surface: "vscode",
          operator: harness.ctx.operator,
          tool: "create_transaction",
          request_digest: null,
          details: { currency: "solana_testnet", reference: "cw-00000000000000000e11", policy_amount: "1000000000" },
        });
      const dry = await call(harness.client, "create_transaction", send());
      const confirmed = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(confirmed.structured.status).toBe("blocked");
      expect(blockingCodes(confirmed.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      // Caught by the plan made again once the person answered (the question is answered before the
      // intent is used), before the reservation re-reads the day under the log's lock again.
      expect(confirmed.text).toContain("BLOCKED (re-check on fresh data), nothing sent");
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
      const last = JSON.parse(readFileSync(harness.auditPath, "utf8").trim().split("\n").at(-1) ?? "{}") as { event: string; details: { stage: string } };
      expect(last).toMatchObject({ event: "blocked", details: { stage: "confirm" } });
    });
  });

  it("releases the reservation of a write the service refused outright, and keeps one whose answer was lost", async () => {
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } } }, async (harness) => {
      const refused = await call(harness.client, "create_transaction", send());
      await control(emulator, "PUT", "/faults", { error_rate: 1, error_status: 400, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      const failed = await call(harness.client, "create_transaction", send({ confirmation_token: refused.token }));
      expect(failed.structured.status).toBe("failed");
      const records = readFileSync(harness.auditPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(records.slice(-2)).toMatchObject([
        { event: "reserved", details: { reference: refused.structured.reference, policy_amount: "1500005000" } },
        { event: "failed", details: { reference: refused.structured.reference, outcome: "not_applied" } },
      ]);
      // Nothing happened: the full allowance is there for the next write.
      const next = await call(harness.client, "create_transaction", send());
      expect(next.structured.status).toBe("dry_run");
      await control(emulator, "PUT", "/faults", { error_rate: 1, error_status: 503, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      const lost = await call(harness.client, "create_transaction", send({ confirmation_token: next.token }));
      expect(lost.structured.status).not.toBe("submitted");
      // The 503 came with an error body: an answer that does not say, not a lost one.
      expect(lost.text).toContain("the service answered HTTP 503 with an error that does not say whether the write was applied");
      expect(lost.text).not.toContain("answer was lost");
      expect(blockingCodes((await call(harness.client, "create_transaction", send({ amount: "1" }))).structured)).toEqual(["POLICY_MAX_PER_DAY"]);
    });
  });

  it("counts a write whose answer was lost toward the daily maximum, even after its look-ups stopped without finding it", async () => {
    const lookups = { lookupFirstDelayMs: 100, lookupHorizonMs: 500 };
    await withServer({ policy: { limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } }, ...lookups }, async (harness) => {
      const dry = await call(harness.client, "create_transaction", send());
      await control(emulator, "PUT", "/faults", { drop_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      const lost = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(lost.structured.status).toBe("uncertain");
      const records = readFileSync(harness.auditPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(records.at(-1)).toMatchObject({
        event: "ambiguous",
        details: { currency: "solana_testnet", policy_amount: "1500005000", reference: dry.structured.reference },
      });
      // The look-ups conclude (issue 21: "not found by its reference in N look-ups"); the write still counts.
      await harness.ctx.road.lookupsSettled();
      const concluded = await call(harness.client, "search_transactions", { label: dry.structured.reference as string });
      expect(concluded.text).toMatch(
        /not found by its reference in \d+ look-ups? until \S+Z, which have stopped: it may still be applied and counts against the daily limit/,
      );
      const next = await call(harness.client, "create_transaction", send({ amount: "1" }));
      expect(blockingCodes(next.structured)).toEqual(["POLICY_MAX_PER_DAY"]);
      expect((await call(harness.client, "create_transaction", send({ amount: "0.49999" }))).structured.status).toBe("dry_run");
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

  it("compares Solana addresses exactly: a case variant of an allowed address is another address", async () => {
    const letter = [...recipient].findLastIndex((character) => character.toUpperCase() !== character.toLowerCase());
    const flipped = recipient[letter] === recipient[letter]?.toUpperCase() ? recipient[letter]?.toLowerCase() : recipient[letter]?.toUpperCase();
    const variant = `${recipient.slice(0, letter)}${flipped}${recipient.slice(letter + 1)}`;
    expect(variant).not.toBe(recipient);
    await withServer({ policy: { allowed_recipients: [recipient] } }, async ({ client }) => {
      const dry = await call(client, "create_transaction", send({ recipient: variant }));
      expect(blockingCodes(dry.structured)).toContain("POLICY_RECIPIENT_NOT_ALLOWED");
    });
  });

  it("compares Ethereum addresses without regard to case", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_contracts: [DEMO.kilnContract.toLowerCase()] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", {
        account: DEMO.ethStaking,
        contract: DEMO.kilnContract,
        contract_data: await ownDepositCallData(emulator),
        amount: "32",
        unit: "ETH",
      });
      expect(dry.structured.status).toBe("dry_run");
      expect(passedCodes(dry)).toContain("POLICY_CONTRACT_OK");
      // Each check is listed once: the 32 ETH minimum and the amount within available are two checks with two codes.
      expect(passedCodes(dry)).toEqual(expect.arrayContaining(["ETHEREUM_STAKE_MINIMUM_BALANCE_OK", "ETHEREUM_STAKE_BALANCE_OK"]));
      expect(new Set(passedCodes(dry)).size).toBe(passedCodes(dry).length);
    });
  });

  it("blocks a validator the allow-list does not hold", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_validators: ["3uJmac161Gdopz4zM8ky7h3Us7fiTurSc2qY5dYGS5RW"] } }, async ({ client }) => {
      const dry = await call(client, "solana_create_stake", {
        account: DEMO.solTreasury,
        amount: "5",
        unit: "SOL",
        validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
      });
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_VALIDATOR_NOT_ALLOWED"]);
    });
  });

  it("blocks a contract the allow-list does not hold", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_contracts: [DEMO.usdcContract] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", {
        account: DEMO.ethStaking,
        contract: DEMO.kilnContract,
        contract_data: await ownDepositCallData(emulator),
        amount: "32",
        unit: "ETH",
      });
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_CONTRACT_NOT_ALLOWED"]);
    });
  });
});

describe("approvals are held to the policy of the operation they release", () => {
  /** A contract call on eth-ops to USDC, created by staking-bot, waiting for treasury-bot's approval. */
  async function pendingContractCall(): Promise<number> {
    await contractRule(DEMO.ethOps, [DEMO.usdcContract]);
    const created = await directClient(emulator, DEMO.stakingBot).createTransaction({
      account_name: DEMO.ethOps,
      amount: "0",
      max_fees: "3000000000000000",
      recipient: DEMO.usdcContract,
      speed: "NORMAL",
      coin_fields: { contract_interaction: { contract_data: await ownDepositCallData(emulator, DEMO.ethOps) } },
    });
    expect(created).toMatchObject({ type: "EXECUTE_CONTRACT", status: "PENDING_APPROVAL" });
    return created.id;
  }

  /** A Solana stake created by staking-bot on sol-treasury, waiting for treasury-bot's approval. */
  async function pendingStake(validator: string): Promise<number> {
    const account = await accountNamed(emulator, DEMO.solTreasury);
    await control(emulator, "PUT", `/accounts/${account.id}/governance`, {
      ...account.governance_rules,
      staking: {
        creators: [{ username: DEMO.stakingBot, is_api: true }],
        steps: [
          {
            quorum: 2,
            approvers: [
              { username: DEMO.stakingBot, is_api: true },
              { username: DEMO.treasuryBot, is_api: true },
            ],
          },
        ],
      },
    });
    const created = await directClient(emulator, DEMO.stakingBot).createSolanaStake(account.id, { amount: 5_000_000_000n, validator });
    expect(created).toMatchObject({ type: "STAKE_CREATE_DELEGATE", status: "PENDING_APPROVAL" });
    return created.id;
  }

  it("checks a contract call's contract against allowed_contracts, not against allowed_recipients", async () => {
    const id = await pendingContractCall();
    await withServer({ policy: { allowed_contracts: [DEMO.kilnContract], allowed_recipients: [DEMO.usdcContract] } }, async ({ client }) => {
      const dry = await call(client, "approve_transaction", { transaction_id: id });
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_CONTRACT_NOT_ALLOWED"]);
    });
    await withServer({ policy: { allowed_contracts: [DEMO.usdcContract] } }, async ({ client }) => {
      expect((await call(client, "approve_transaction", { transaction_id: id })).structured.status).toBe("dry_run");
    });
  });

  it("checks a stake's validator against allowed_validators", async () => {
    const validator = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
    const id = await pendingStake(validator);
    await withServer(
      { policy: { allowed_validators: ["3uJmac161Gdopz4zM8ky7h3Us7fiTurSc2qY5dYGS5RW"], allowed_recipients: [validator] } },
      async ({ client }) => {
        const dry = await call(client, "approve_transaction", { transaction_id: id });
        expect(blockingCodes(dry.structured)).toEqual(["POLICY_VALIDATOR_NOT_ALLOWED"]);
      },
    );
    await withServer({ policy: { allowed_validators: [validator] } }, async ({ client }) => {
      expect((await call(client, "approve_transaction", { transaction_id: id })).structured.status).toBe("dry_run");
    });
  });

  it("requires the toolset of the operation an approval releases", async () => {
    const id = await pendingContractCall();
    await withServer({ policy: { toolsets: ["transactions"] } }, async ({ client }) => {
      const dry = await call(client, "approve_transaction", { transaction_id: id });
      expect(blockingCodes(dry.structured)).toEqual(["POLICY_TOOLSET_NOT_ENABLED"]);
    });
    await withServer({ policy: { toolsets: ["transactions", "ethereum_staking"] } }, async ({ client }) => {
      expect((await call(client, "approve_transaction", { transaction_id: id })).structured.status).toBe("dry_run");
    });
  });
});

// Issue 18, point 4: with allowed_recipients set and an empty smart-contract whitelist, ethereum_stake
// paid 32 ETH to a contract the policy forbids, with call data the guard could not read.
const ALLOWED = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";
const ZERO_FILLED = encodeDepositCall({
  pubkey: "00".repeat(48),
  withdrawal_credentials: "00".repeat(32),
  signature: "00".repeat(96),
  deposit_data_root: "00".repeat(32),
});

/** eth-staking's smart-contract rule with an empty whitelist (the spec allows it). */
const emptyWhitelist = () => contractRule(DEMO.ethStaking, []);

/** staking-bot's contract transaction from eth-staking, waiting for treasury-bot's approval (under an approver rule the test sets). */
async function pendingOnEthStaking(
  type: "EXECUTE_CONTRACT" | "DEPLOY_CONTRACT",
  fields: Pick<TransactionRequest, "amount" | "max_fees" | "recipient" | "coin_fields">,
): Promise<number> {
  const created = await directClient(emulator, DEMO.stakingBot).createTransaction({ account_name: DEMO.ethStaking, speed: "NORMAL", ...fields });
  expect(created).toMatchObject({ type, status: "PENDING_APPROVAL" });
  return created.id;
}

/** staking-bot's 32 ETH contract call from eth-staking (to OTHER unless named), waiting for treasury-bot's approval. */
const pendingCall = (contractData: string, contract: string = OTHER) =>
  pendingOnEthStaking("EXECUTE_CONTRACT", {
    amount: "32000000000000000000",
    max_fees: "3000000000000000",
    recipient: contract,
    coin_fields: { contract_interaction: { contract_data: contractData } },
  });

const stake = (contract: string, contractData: string) => ({ account: DEMO.ethStaking, contract, contract_data: contractData, amount: "32", unit: "ETH" });

describe("ethereum_stake pays only a contract something allows, with one deposit's call data", () => {
  beforeEach(emptyWhitelist);

  it("blocks the review's stake: a contract allowed_recipients excludes, an empty whitelist, call data 0xdeadbeef", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_recipients: [ALLOWED] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", stake(OTHER, "0xdeadbeef"));
      expect(dry.structured.status).toBe("blocked");
      expect(blockingCodes(dry.structured).sort()).toEqual([
        "ETHEREUM_STAKE_CALL_DATA_NOT_DEPOSIT",
        "ETHEREUM_STAKE_WHITELIST_EMPTY",
        "POLICY_CONTRACT_NOT_AMONG_RECIPIENTS",
      ]);
      expect(dry.text).toContain("selector 0x22895118");
    });
  });

  it("blocks zero-filled deposit call data, even to a contract allowed_contracts names", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_contracts: [OTHER] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", stake(OTHER, ZERO_FILLED));
      expect(blockingCodes(dry.structured)).toEqual(["ETHEREUM_STAKE_CALL_DATA_ZERO_FILLED"]);
      const selectorOnly = await call(client, "ethereum_stake", stake(OTHER, `0x22895118${"00".repeat(32)}`));
      expect(blockingCodes(selectorOnly.structured)).toEqual(["ETHEREUM_STAKE_CALL_DATA_NOT_DEPOSIT"]);
    });
  });

  it("an empty whitelist blocks unless allowed_contracts names the contract; allowed_contracts also admits it past allowed_recipients", async () => {
    await withServer({ operator: DEMO.stakingBot }, async ({ client }) => {
      expect(blockingCodes((await call(client, "ethereum_stake", stake(OTHER, await ownDepositCallData(emulator)))).structured)).toEqual([
        "ETHEREUM_STAKE_WHITELIST_EMPTY",
      ]);
    });
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_contracts: [OTHER], allowed_recipients: [ALLOWED] } }, async ({ client }) => {
      const { confirmed } = await dryRunAndConfirm(client, "ethereum_stake", stake(OTHER, await ownDepositCallData(emulator)));
      expect(confirmed.structured.status).toBe("submitted");
    });
  });
});

describe("an approval of a contract call is held to the same rules", () => {
  beforeEach(emptyWhitelist);

  it("blocks approving 32 ETH to a contract allowed_recipients excludes, under an empty whitelist, with unreadable call data", async () => {
    const id = await pendingCall("0xdeadbeef");
    await withServer({ policy: { allowed_recipients: [ALLOWED] } }, async ({ client }) => {
      const dry = await call(client, "approve_transaction", { transaction_id: id });
      expect(blockingCodes(dry.structured).sort()).toEqual([
        "ETHEREUM_STAKE_CALL_DATA_NOT_DEPOSIT",
        "ETHEREUM_STAKE_WHITELIST_EMPTY",
        "POLICY_CONTRACT_NOT_AMONG_RECIPIENTS",
      ]);
    });
  });

  it("blocks approving zero-filled call data; passes a deposit to a contract allowed_contracts names", async () => {
    const zero = await pendingCall(ZERO_FILLED);
    const deposit = await pendingCall(await ownDepositCallData(emulator));
    await withServer({ policy: { allowed_contracts: [OTHER] } }, async ({ client }) => {
      expect(blockingCodes((await call(client, "approve_transaction", { transaction_id: zero })).structured)).toEqual(["ETHEREUM_STAKE_CALL_DATA_ZERO_FILLED"]);
      expect((await call(client, "approve_transaction", { transaction_id: deposit })).structured.status).toBe("dry_run");
    });
  });
});

// Review of issue 18, finding 1: the deposit's withdrawal credentials decide who gets the 32 ETH
// back; an attacker's address there passed every check and was shown nowhere but in the hex.
const ATTACKER = "0xabababababababababababababababababababab";
const attackerDeposit = depositCallData(ATTACKER);

describe("a deposit's withdrawals go only to the account's own address or an allowed recipient", () => {
  it("blocks ethereum_stake whose withdrawal credentials name another address, naming it, and shows it as a destination", async () => {
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_recipients: [DEMO.kilnContract] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", stake(DEMO.kilnContract, attackerDeposit));
      expect(dry.structured.status).toBe("blocked");
      expect(blockingCodes(dry.structured)).toEqual(["ETHEREUM_STAKE_WITHDRAWALS_NOT_ALLOWED"]);
      const shown = "0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB";
      expect(dry.text).toContain(`Withdrawals to: <untrusted field="withdrawals">${shown}</untrusted>`);
      expect(dry.text).toMatch(new RegExp(`send the deposit's withdrawals .* to ${shown}, which is neither the account's own address`));
      expect(dry.structured.destinations).toEqual([
        { role: "contract", value: DEMO.kilnContract },
        { role: "withdrawals", value: shown },
      ]);
    });
  });

  it("blocks BLS (0x00) withdrawal credentials, whose holder the guard cannot tell", async () => {
    const bls = encodeDepositCall({
      pubkey: "b1".repeat(48),
      withdrawal_credentials: `00${"ab".repeat(31)}`,
      signature: "d3".repeat(96),
      deposit_data_root: "e4".repeat(32),
    });
    await withServer({ operator: DEMO.stakingBot }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", stake(DEMO.kilnContract, bls));
      expect(blockingCodes(dry.structured)).toEqual(["ETHEREUM_STAKE_WITHDRAWAL_CREDENTIALS_UNREADABLE"]);
      expect(dry.text).toContain("BLS credentials (prefix 0x00)");
    });
  });

  it("passes withdrawals to the account's own address and to an allowed recipient, each shown as a destination, and submits", async () => {
    const own = (await accountNamed(emulator, DEMO.ethStaking)).address;
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_recipients: [DEMO.kilnContract] } }, async ({ client }) => {
      const { dry, confirmed } = await dryRunAndConfirm(client, "ethereum_stake", stake(DEMO.kilnContract, await ownDepositCallData(emulator)));
      expect(passedCodes(dry)).toContain("ETHEREUM_STAKE_WITHDRAWALS_TO_ACCOUNT");
      expect(dry.structured.destinations).toEqual([
        { role: "contract", value: DEMO.kilnContract },
        { role: "withdrawals", value: own },
      ]);
      expect(dry.text).toContain(`Withdrawals to: <untrusted field="withdrawals">${own}</untrusted>`);
      expect(confirmed.structured.status).toBe("submitted");
    });
    await withServer({ operator: DEMO.stakingBot, policy: { allowed_recipients: [DEMO.kilnContract, ATTACKER] } }, async ({ client }) => {
      const dry = await call(client, "ethereum_stake", stake(DEMO.kilnContract, attackerDeposit));
      expect(dry.structured.status).toBe("dry_run");
      expect(passedCodes(dry)).toContain("ETHEREUM_STAKE_WITHDRAWALS_TO_ALLOWED_RECIPIENT");
    });
  });

  it("blocks approving another operator's deposit whose withdrawals go to another address, and shows where", async () => {
    await contractRule(DEMO.ethStaking, [DEMO.kilnContract]);
    const id = await pendingCall(attackerDeposit, DEMO.kilnContract);
    await withServer({ policy: { allowed_recipients: [DEMO.kilnContract] } }, async ({ client }) => {
      const dry = await call(client, "approve_transaction", { transaction_id: id });
      expect(blockingCodes(dry.structured)).toEqual(["ETHEREUM_STAKE_WITHDRAWALS_NOT_ALLOWED"]);
      expect(dry.text).toMatch(/^Withdrawals to: <untrusted field="withdrawals">0xABaB/m);
    });
  });
});

// Review of issue 18, finding 2: an approval of a contract deployment was unchecked and shown as
// going "Into: the same account", while it pays its amount to a contract nobody can read.
describe("an approval of a contract deployment", () => {
  async function pendingDeploy(amount: string): Promise<number> {
    await contractRule(DEMO.ethStaking, []);
    return pendingOnEthStaking("DEPLOY_CONTRACT", { amount, max_fees: "20000000000000000", recipient: "", coin_fields: { contract_deployment: {} } });
  }

  it("blocks one that pays an amount, shown as going to a new contract", async () => {
    const id = await pendingDeploy("32000000000000000000");
    await withServer({ policy: { allowed_recipients: [ALLOWED] } }, async ({ client }) => {
      const dry = await call(client, "approve_transaction", { transaction_id: id });
      expect(dry.structured.status).toBe("blocked");
      expect(blockingCodes(dry.structured)).toEqual(["APPROVE_DEPLOY_CONTRACT_PAYS"]);
      expect(dry.text).toContain("cannot read a deployment's bytecode");
      expect(dry.text).toMatch(/^Into: <untrusted field="into">a new contract \(deployment\)<\/untrusted>/m);
      expect(dry.text).not.toContain("the same account");
      expect(dry.structured.destinations).toEqual([
        { role: "transaction", value: `${id} (DEPLOY_CONTRACT)` },
        { role: "into", value: "a new contract (deployment)" },
      ]);
    });
  });

  it("passes one with amount 0, with a warning", async () => {
    const id = await pendingDeploy("0");
    await withServer({}, async ({ client }) => {
      const dry = await call(client, "approve_transaction", { transaction_id: id });
      expect(dry.structured.status).toBe("dry_run");
      expect(dry.text).toContain("APPROVE_DEPLOY_CONTRACT_UNREAD");
      expect(dry.text).toContain("a new contract (deployment)");
    });
  });
});
