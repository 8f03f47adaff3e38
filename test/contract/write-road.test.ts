import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodyApiError, eip55Checksummed, hasBlocking, Policy, requestDigest, type CustodyClient, type PlannedWrite } from "@custody/shared";
import { lookUpLostAnswer, planWrite, sendOnce } from "@custody/shared/road-steps";
import { startEmulator } from "@custody/emulator";
import { clientFor, control, planContext, startDemoEmulator, type RunningEmulator } from "./emulator-harness.js";

// The write road's steps (shared/src/write-road) against the real emulator: plan on fresh data, send once,
// look up an ambiguous outcome. Amounts in lamports, planck and wei.

let emulator: RunningEmulator;
let treasury: CustodyClient;
let staking: CustodyClient;
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

beforeAll(async () => {
  emulator = await startDemoEmulator();
  treasury = clientFor(emulator, "treasury-bot");
  staking = clientFor(emulator, "staking-bot");
});
afterAll(async () => {
  await emulator?.close();
});

const codes = (plan: PlannedWrite) => plan.checks.map((check) => `${check.severity}:${check.code}`);
const transactionCount = async (client: CustodyClient) => (await client.searchTransactions({ page_size: 1 })).page_info.count;

describe("what a plan shows besides its checks: the fee, the balances before and after, the dates", () => {
  const before = (plan: PlannedWrite, name: string) => plan.balances.find((change) => change.name === name);

  it("estimates the fee on every network: a send, a Solana stake, a Polkadot staking operation, an Ethereum stake, an approval", async () => {
    const send = await planWrite(planContext(treasury), { kind: "send", account: "sol-treasury", amount: 1_000_000n, recipient: RECIPIENT, speed: "NORMAL" });
    const stake = await planWrite(planContext(staking), { kind: "solana_create_stake", account: "sol-treasury", amount: 5_000_000_000n, validator: RECIPIENT });
    const unbond = await planWrite(planContext(treasury), { kind: "polkadot_unbond", account: "dot-staking", amount: 10_000_000_000n });
    const deposit = await planWrite(planContext(staking), {
      kind: "ethereum_stake",
      account: "eth-staking",
      amount: 32n * 10n ** 18n,
      contract: "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270",
      contract_data: `0x22895118${"00".repeat(32)}`,
      speed: "NORMAL",
    });
    const pending = (await treasury.searchTransactions({ status: "PENDING_APPROVAL" })).edges[0]?.node;
    if (!pending) throw new Error("the demo workspace has no pending transaction");
    const approval = await planWrite(planContext(treasury), { kind: "approve_transaction", transaction_id: pending.id });
    expect(send.fee).toEqual({ estimated: { base_units: "5000", display: "0.000005", unit: "SOL" } });
    expect(stake.fee).toEqual({ estimated: { base_units: "5000", display: "0.000005", unit: "SOL" } });
    expect(unbond.fee).toEqual({ estimated: { base_units: "0", display: "0", unit: "DOT" } });
    expect(deposit.fee).toEqual({ estimated: expect.objectContaining({ unit: "ETH" }) });
    expect(approval.fee).toEqual({ estimated: expect.objectContaining({ base_units: expect.stringMatching(/^[1-9][0-9]*$/) }) });
    // The stake's balance check now counts the fee, known at last.
    expect(stake.checks.find((check) => check.code === "SOLANA_STAKE_BALANCE_OK")?.message).not.toContain("fees not known");
  });

  it("shows the balances a write draws on before and after: a send, an unbond, a withdrawal of unbonded funds", async () => {
    const send = await planWrite(planContext(treasury), {
      kind: "send",
      account: "sol-treasury",
      amount: 1_000_000n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    const available = (await treasury.listAllAccounts()).find((candidate) => candidate.name === "sol-treasury")?.available_balance ?? 0n;
    expect(before(send, "available_balance")).toEqual({
      name: "available_balance",
      before: expect.objectContaining({ base_units: available.toString() }),
      after: expect.objectContaining({ base_units: (available - 1_010_000n).toString() }),
    });
    const unbond = await planWrite(planContext(treasury), { kind: "polkadot_unbond", account: "dot-staking", amount: 2_500_000_000_000n });
    expect(unbond.balances).toEqual([
      { name: "balances.bonded", before: expect.objectContaining({ display: "3200" }), after: expect.objectContaining({ display: "2950" }) },
      { name: "balances.total_unbonding", before: expect.objectContaining({ display: "200" }), after: expect.objectContaining({ display: "450" }) },
    ]);
    const withdraw = await planWrite(planContext(treasury), { kind: "polkadot_withdraw_unbonded", account: "dot-staking" });
    expect(withdraw.balances.map((change) => [change.name, change.before.display, change.after.display])).toEqual([
      ["balances.total_unbonded", "100", "0"],
      ["balances.available", "1500", "1600"],
    ]);
    // A write beyond what it draws on shows the shortfall as a negative after-balance; its check blocks it.
    const tooMuch = await planWrite(planContext(treasury), { kind: "polkadot_unbond", account: "dot-staking", amount: 10n ** 20n });
    expect(before(tooMuch, "balances.bonded")?.after.base_units).toMatch(/^-[0-9]+$/);
  });

  it("dates what a write leads to: an unbond's unlock, a deactivation's withdrawal at the next epoch boundary", async () => {
    const clock = (await control(emulator, "GET", "/clock")) as { now_ms: number; next_epoch_at: string };
    const unbond = await planWrite(planContext(treasury), { kind: "polkadot_unbond", account: "dot-staking", amount: 10_000_000_000n });
    expect(Math.abs(Date.parse(unbond.dates.unlocks_at ?? "") - (clock.now_ms + 28 * 86_400_000))).toBeLessThan(5_000);
    const stake = (await staking.listSolanaStakes(1)).find((candidate) => candidate.blockchain_state.status === "activated");
    if (!stake) throw new Error("the demo workspace has no activated stake");
    const deactivate = await planWrite(planContext(staking), { kind: "solana_deactivate_stake", account: "sol-treasury", stake_uid: stake.uid });
    // Never before the boundary; from the demo's stakes, within two minutes after it (rounded up to the minute).
    const withdrawable = Date.parse(deactivate.dates.withdrawable_at ?? "");
    expect(withdrawable).toBeGreaterThanOrEqual(Date.parse(clock.next_epoch_at));
    expect(withdrawable - Date.parse(clock.next_epoch_at)).toBeLessThan(120_000);
  });
});

describe("planning a write changes nothing", () => {
  it("plans a send with the fee proposal, the checks, both units and the governance forecast", async () => {
    const before = await transactionCount(treasury);
    const plan = await planWrite(planContext(treasury), {
      kind: "send",
      account: "sol-treasury",
      amount: 1_500_000_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(plan)).toEqual(expect.arrayContaining(["info:MAX_FEES_PROPOSED", "info:SEND_BALANCE_OK", "info:GOVERNANCE_APPROVED_AT_ONCE"]));
    expect(hasBlocking(plan.checks)).toBe(false);
    expect(plan.proposed_max_fees).toBeGreaterThan(0n);
    expect(plan.amounts.amount).toEqual({ base_units: "1500000000", display: "1.5", unit: "SOL" });
    expect(plan.call.path).toBe("/transactions");
    expect(plan.call.body).toMatchObject({ account_name: "sol-treasury", amount: { value: "1500000000", unit: "lamport" }, coin_fields: { type: "SEND" } });
    expect(JSON.stringify(plan.call.body)).toContain(plan.correlation_id);
    expect(await transactionCount(treasury)).toBe(before);
  });

  it("forecasts pending human approval on an account whose rule has a human step", async () => {
    const plan = await planWrite(planContext(treasury), {
      kind: "send",
      account: "sol-cold",
      amount: 1_000_000n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(plan.governance).toMatchObject({ outcome: "pending_approval", needs_human: true });
  });

  it("blocks an operator the rule does not list", async () => {
    const plan = await planWrite(planContext(treasury), { kind: "solana_create_stake", account: "sol-treasury", amount: 5_000_000_000n, validator: RECIPIENT });
    expect(codes(plan)).toContain("block:GOVERNANCE_NOT_ALLOWED");
  });

  it("blocks a Polkadot unbond above the bonded balance", async () => {
    const plan = await planWrite(planContext(treasury), { kind: "polkadot_unbond", account: "dot-staking", amount: 10n ** 20n });
    expect(codes(plan)).toContain("block:POLKADOT_UNBOND_EXCEEDS_BONDED");
    expect(plan.call.body).toMatchObject({ recipient: "", speed: "CUSTOM", max_fees: { value: "0", unit: "planck" }, coin_fields: { type: "UNBOND" } });
  });

  it("applies the local policy's per-transaction maximum", async () => {
    const policy = Policy.parse({ limits: { solana_testnet: { max_per_transaction: { amount: "1", unit: "SOL" } } } });
    const plan = await planWrite(planContext(treasury, policy), {
      kind: "send",
      account: "sol-treasury",
      amount: 1_000_000_001n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(plan)).toContain("block:POLICY_MAX_PER_TRANSACTION");
  });

  it("blocks a send to an address that is not one of the account's network", async () => {
    const dot = await planWrite(planContext(treasury), {
      kind: "send",
      account: "dot-staking",
      amount: 10_000_000_000n,
      max_fees: 200_000_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(dot)).toContain("block:RECIPIENT_ADDRESS_INVALID");
    expect(dot.checks.find((check) => check.code === "RECIPIENT_ADDRESS_INVALID")?.message).toBe(
      `recipient: must be a Polkadot SS58 address (network prefix 0) with a valid checksum, got "${RECIPIENT}"`,
    );
    const sol = await planWrite(planContext(treasury), {
      kind: "send",
      account: "sol-treasury",
      amount: 1_000n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(sol)).toContain("info:RECIPIENT_ADDRESS_OK");
    const eth = await planWrite(planContext(treasury), {
      kind: "send",
      account: "eth-ops",
      amount: 1_000n,
      max_fees: 10n ** 15n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(eth)).toContain("block:RECIPIENT_ADDRESS_INVALID");
  });

  it("blocks an Ethereum recipient whose mixed-case spelling fails its EIP-55 checksum (a mistyped digit), and the emulator refuses it too", async () => {
    const intended = eip55Checksummed("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
    const mistyped = `${intended.slice(0, -1)}c`;
    const plan = (recipient: string) =>
      planWrite(planContext(treasury), { kind: "send", account: "eth-ops", amount: 1_000n, max_fees: 10n ** 15n, recipient, speed: "NORMAL" });
    expect(codes(await plan(intended))).toContain("info:RECIPIENT_ADDRESS_OK");
    expect(codes(await plan(intended.toLowerCase()))).toContain("info:RECIPIENT_ADDRESS_OK");
    const blocked = await plan(mistyped);
    expect(blocked.checks.find((check) => check.code === "RECIPIENT_ADDRESS_INVALID")?.message).toBe(
      `recipient: must be an Ethereum address (0x then 40 hex digits; in mixed case, a valid EIP-55 checksum), got "${mistyped}"`,
    );
    const before = await transactionCount(treasury);
    const sent = treasury.createTransaction({ ...(blocked.call.body as object), recipient: mistyped } as Parameters<CustodyClient["createTransaction"]>[0]);
    await expect(sent).rejects.toBeInstanceOf(CustodyApiError);
    await expect(sent).rejects.toMatchObject({ status: 400, message: expect.stringContaining("recipient: must be an Ethereum address") });
    expect(await transactionCount(treasury)).toBe(before);
  });

  it("blocks every write while the local policy keys a limit by something that is no currency of the workspace", async () => {
    const misKeyed = Policy.parse({ limits: { SOL: { max_per_transaction: { amount: "1", unit: "SOL" } } } });
    const plan = await planWrite(planContext(treasury, misKeyed), {
      kind: "send",
      account: "sol-treasury",
      amount: 2_000_000_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(plan)).toEqual(expect.arrayContaining(["block:POLICY_LIMIT_UNKNOWN_CURRENCY", "info:POLICY_NO_LIMIT"]));
    const keyed = Policy.parse({ limits: { solana_testnet: { max_per_transaction: { amount: "1", unit: "SOL" } } } });
    const limited = await planWrite(planContext(treasury, keyed), {
      kind: "send",
      account: "sol-treasury",
      amount: 2_000_000_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    expect(codes(limited)).toContain("block:POLICY_MAX_PER_TRANSACTION");
    expect(codes(limited).filter((code) => code.includes("UNKNOWN_CURRENCY") || code.includes("NO_LIMIT"))).toEqual([]);
  });

  it(
    "blocks guided Solana staking by an operator of the staking rule who is not in the " + "transaction rule (usage rule 1), as the service refuses it",
    async () => {
      const rules = (await treasury.listAllAccounts()).find((account) => account.name === "sol-treasury")?.governance_rules;
      if (!rules?.transaction || !rules.staking) throw new Error("sol-treasury reports no transaction or staking rule");
      expect(rules.staking.creators.map((member) => member.username)).toContain("staking-bot");
      const governance = {
        ...rules,
        transaction: { ...rules.transaction, creators: rules.transaction.creators.filter((member) => member.username !== "staking-bot") },
      };
      const created = (await control(emulator, "POST", "/accounts", { name: "stake-rule-only", currency: "solana_testnet", governance })) as { id: number };
      const plan = await planWrite(planContext(staking), { kind: "solana_create_stake", account: created.id, amount: 5_000_000_000n, validator: RECIPIENT });
      expect(plan.checks.find((check) => check.code === "GOVERNANCE_NOT_IN_TRANSACTION_RULE")).toMatchObject({
        severity: "block",
        message: expect.stringMatching(
          /^guided Solana staking needs operator staking-bot in the account.s transaction rule as well as its staking rule: staking-bot is not a creator in it \(creators: treasury-bot \(API\); approvers: step 1, 1 of treasury-bot \(API\), staking-bot \(API\)\)$/,
        ),
      });
      await expect(staking.createSolanaStake(created.id, { amount: 5_000_000_000n, validator: RECIPIENT })).rejects.toMatchObject({ status: 403 });
    },
  );

  it("binds the digest to the operator, the amount and the recipient", async () => {
    const request = {
      kind: "send" as const,
      account: "sol-treasury",
      amount: 1_000n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL" as const,
      correlation_id: "cw-00000000000000000001",
    };
    const base = requestDigest(await planWrite(planContext(treasury), request));
    expect(requestDigest(await planWrite(planContext(treasury), request))).toBe(base);
    expect(requestDigest(await planWrite(planContext(treasury), { ...request, amount: 1_001n }))).not.toBe(base);
    expect(requestDigest(await planWrite(planContext(staking), request))).not.toBe(base);
    expect(requestDigest(await planWrite(planContext(treasury), { ...request, recipient: "8WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" }))).not.toBe(base);
  });
});

describe("submitting a write sends it once", () => {
  it("submits a send that is approved at once and finds it by its reference", async () => {
    const plan = await planWrite(planContext(treasury), { kind: "send", account: "sol-treasury", amount: 2_000_000n, recipient: RECIPIENT, speed: "NORMAL" });
    const outcome = await sendOnce(treasury, plan);
    expect(outcome).toMatchObject({ status: "submitted", looked_up: false });
    if (outcome.status !== "submitted") return;
    expect(["APPROVED", "SIGNED", "SUBMITTED"]).toContain(outcome.transaction.status);
    const found = await treasury.searchAllTransactions({ label: plan.correlation_id });
    expect(found.map((tx) => tx.id)).toEqual([outcome.transaction.id]);
  });

  it("creates a Solana stake under the staking rule", async () => {
    const plan = await planWrite(planContext(staking), { kind: "solana_create_stake", account: "sol-treasury", amount: 5_000_000_000n, validator: RECIPIENT });
    expect(hasBlocking(plan.checks)).toBe(false);
    const outcome = await sendOnce(staking, plan);
    expect(outcome.status === "submitted" && outcome.transaction.type).toBe("STAKE_CREATE_DELEGATE");
  });

  it("resolves a lost answer by looking the write up, without sending it again", async () => {
    const before = await transactionCount(treasury);
    const plan = await planWrite(planContext(treasury), {
      kind: "send",
      account: "sol-treasury",
      amount: 3_000_000n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
    });
    await control(emulator, "PUT", "/faults", { drop_after_rate: 1, methods: ["POST"], remaining: 1 });
    const outcome = await sendOnce(treasury, plan);
    expect(outcome).toMatchObject({ status: "submitted", looked_up: true });
    expect(await transactionCount(treasury)).toBe(before + 1);
  });

  it(
    "reports a write whose connection dropped before it was handled as uncertain (it " + "may still land), never as not applied, and sends nothing else",
    async () => {
      const before = await transactionCount(treasury);
      const plan = await planWrite(planContext(treasury), {
        kind: "send",
        account: "sol-treasury",
        amount: 4_000_000n,
        max_fees: 10_000n,
        recipient: RECIPIENT,
        speed: "NORMAL",
      });
      await control(emulator, "PUT", "/faults", { drop_rate: 1, methods: ["POST"], remaining: 1 });
      const outcome = await sendOnce(treasury, plan);
      expect(outcome.status).toBe("uncertain");
      expect(outcome.status === "uncertain" && outcome.message).toContain(`it may still be applied`);
      expect(await transactionCount(treasury)).toBe(before);
    },
  );

  it("resolves a lost answer on a Solana stake action, whose body has no note", async () => {
    const stakes = await staking.listSolanaStakes(1);
    const active = stakes.find((stake) => stake.blockchain_state.status === "activated" && stake.actions.some((a) => a.endsWith("/deactivate")));
    expect(active).toBeDefined();
    const plan = await planWrite(planContext(staking), { kind: "solana_deactivate_stake", account: 1, stake_uid: active!.uid });
    await control(emulator, "PUT", "/faults", { drop_after_rate: 1, methods: ["POST"], remaining: 1 });
    const outcome = await sendOnce(staking, plan);
    expect(outcome).toMatchObject({ status: "submitted", looked_up: true });
    expect(outcome.status === "submitted" && outcome.transaction.type).toBe("STAKE_DEACTIVATE");
  });
});

describe("looking a write up by its reference", () => {
  it("takes only a transaction of the plan's account and of its operator as this write", async () => {
    const reference = "cw-0000000000000000beef";
    const plan = await planWrite(planContext(treasury), {
      kind: "send",
      account: "sol-treasury",
      amount: 1_000n,
      max_fees: 10_000n,
      recipient: RECIPIENT,
      speed: "NORMAL",
      correlation_id: reference,
    });
    const note = { title: "elsewhere", content: `[ref ${reference}]` };
    const write = { operator: plan.operator, reference, recognition: { account_id: plan.account.id, lost: plan.lostAnswer, watermark: null } };
    const body = {
      amount: { value: "1000", unit: "lamport" },
      max_fees: { value: "10000", unit: "lamport" },
      recipient: RECIPIENT,
      speed: "NORMAL" as const,
      coin_fields: { type: "SEND" as const },
      note,
    };
    // Another account (sol-cold) carrying the reference: not this write.
    await treasury.createTransaction({ ...body, account_name: "sol-cold" });
    expect(await lookUpLostAnswer(treasury, write)).toEqual({ found: "none" });
    // The plan's account, but created by another operator: not this write either.
    await staking.createTransaction({ ...body, account_name: "sol-treasury" });
    expect(await lookUpLostAnswer(treasury, write)).toEqual({ found: "none" });
    const mine = await treasury.createTransaction({ ...body, account_name: "sol-treasury" });
    expect(await lookUpLostAnswer(treasury, write)).toMatchObject({ found: "one", transaction: { id: mine.id } });
  });
});

describe("a given max_fees against the service's fee estimate", () => {
  const send = (max_fees: bigint) =>
    planWrite(planContext(treasury), { kind: "send", account: "sol-treasury", amount: 1_000n, max_fees, recipient: RECIPIENT, speed: "NORMAL" });
  const finding = (plan: PlannedWrite, prefix: string) => plan.checks.find((check) => check.code.startsWith(prefix));

  it("blocks a cap below the estimate for the speed, passes one that covers it, warns about one above ten times it", async () => {
    const estimate = await treasury.estimateFees({
      account_name: "sol-treasury",
      amount: { value: "1000", unit: "lamport" },
      recipient: RECIPIENT,
      speed: "NORMAL",
      coin_fields: { type: "SEND" },
    });
    const below = await send(estimate.fees - 1n);
    expect(codes(below)).toContain("block:MAX_FEES_BELOW_ESTIMATE");
    expect(finding(below, "MAX_FEES")?.message).toContain(
      `below the network fee estimate of 0.000005 SOL (${estimate.fees} lamport) at speed NORMAL: it does not cover the network fee`,
    );
    expect(codes(await send(estimate.fees))).toContain("info:MAX_FEES_COVERS_ESTIMATE_OK");
    expect(codes(await send(estimate.fees * 10n))).toContain("info:MAX_FEES_COVERS_ESTIMATE_OK");
    expect(codes(await send(estimate.fees * 10n + 1n))).toContain("warn:MAX_FEES_FAR_ABOVE_ESTIMATE");
  });

  it("compares an Ethereum staking cap too", async () => {
    const plan = await planWrite(planContext(staking), {
      kind: "ethereum_stake",
      account: "eth-staking",
      amount: 32n * 10n ** 18n,
      max_fees: 1n,
      contract: "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270",
      contract_data: `0x22895118${"00".repeat(32)}`,
      speed: "NORMAL",
    });
    expect(codes(plan)).toContain("block:MAX_FEES_BELOW_ESTIMATE");
  });

  it("says the cap was not compared when the estimate fails, and still blocks a missing cap", async () => {
    await control(emulator, "PUT", "/faults", { error_rate: 1, error_status: 400, methods: ["POST"], path_prefix: "/transactions/fees" });
    try {
      const given = await send(10_000n);
      expect(codes(given)).toContain("warn:MAX_FEES_NOT_COMPARED");
      expect(finding(given, "MAX_FEES")?.message).toMatch(
        /^max_fees 0\.00001 SOL \(10000 lamport\) was not compared with the network fee: the fee estimate failed \(POST \/transactions\/fees answered HTTP 400/,
      );
      const missing = await planWrite(planContext(treasury), { kind: "send", account: "sol-treasury", amount: 1_000n, recipient: RECIPIENT, speed: "NORMAL" });
      expect(codes(missing)).toContain("block:MAX_FEES_REQUIRED");
    } finally {
      await control(emulator, "DELETE", "/faults");
    }
  });
});

describe("operations in flight on the same account", () => {
  // Processing slow enough that an approved transaction stays APPROVED (not yet signed nor broadcast) during the test.
  let slow: RunningEmulator;
  let bot: CustodyClient;
  const DOT = 10_000_000_000n;
  beforeAll(async () => {
    slow = await startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 600_000 });
    bot = clientFor(slow, "treasury-bot");
  });
  afterAll(async () => {
    await slow?.close();
  });
  const check = (plan: PlannedWrite, code: string) => plan.checks.find((item) => item.code === code);

  it("an UNBOND after another still APPROVED is checked against what remains bonded", async () => {
    const first = await planWrite(planContext(bot), { kind: "polkadot_unbond", account: "dot-staking", amount: 3000n * DOT });
    expect(codes(first)).toEqual(expect.arrayContaining(["info:POLKADOT_UNBOND_OK", "info:POLKADOT_UNBOND_IN_FLIGHT_OK"]));
    const sent = await sendOnce(bot, first);
    if (sent.status !== "submitted") throw new Error(`the first UNBOND was not submitted: ${sent.status}`);
    expect(sent.transaction.status).toBe("APPROVED");
    const second = await planWrite(planContext(bot), { kind: "polkadot_unbond", account: "dot-staking", amount: 3000n * DOT });
    expect(codes(second)).toEqual(expect.arrayContaining(["info:POLKADOT_UNBOND_OK", "block:POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT"]));
    expect(check(second, "POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT")?.message).toBe(
      "UNBOND amount 3000 DOT (30000000000000 planck) + 3000 DOT (30000000000000 planck) of unfinished transactions on " +
        `the account (id ${sent.transaction.id} UNBOND 3000 DOT (30000000000000 planck) APPROVED) = 6000 DOT ` +
        "(60000000000000 planck) exceeds balances.bonded 3200 DOT (32000000000000 planck): they all draw on it when " +
        "broadcast, so one of them would fail; wait for them to finish or lower the amount",
    );
    const rest = await planWrite(planContext(bot), { kind: "polkadot_unbond", account: "dot-staking", amount: 200n * DOT });
    expect(codes(rest)).toContain("info:POLKADOT_UNBOND_IN_FLIGHT_OK");
    // A REBOND draws on unbonding funds, not bonded: the UNBOND in flight is not counted against it.
    expect(codes(await planWrite(planContext(bot), { kind: "polkadot_rebond", account: "dot-staking", amount: 300n * DOT }))).toContain(
      "info:POLKADOT_REBOND_IN_FLIGHT_OK",
    );
  });

  it("a BONDEXTRA pending approval counts against the available balance of a later BONDEXTRA and of a send", async () => {
    const account = (await bot.listAllAccounts()).find((candidate) => candidate.name === "dot-vault");
    if (!account) throw new Error("the demo workspace has no dot-vault");
    const human = { username: "dana.approver", is_api: false };
    await control(slow, "PUT", `/accounts/${account.id}/governance`, {
      transaction: { creators: [{ username: "treasury-bot", is_api: true }], steps: [{ quorum: 1, approvers: [human] }] },
      staking: null,
      smart_contract: null,
    });
    const available = (await bot.getAccount(account.id)).available_balance;
    const half = available / 2n + 1n;
    const pending = await sendOnce(bot, await planWrite(planContext(bot), { kind: "polkadot_bond_extra", account: "dot-vault", amount: half }));
    if (pending.status !== "submitted") throw new Error(`the BONDEXTRA was not submitted: ${pending.status}`);
    expect(pending.transaction.status).toBe("PENDING_APPROVAL");
    const again = await planWrite(planContext(bot), { kind: "polkadot_bond_extra", account: "dot-vault", amount: half });
    expect(codes(again)).toEqual(expect.arrayContaining(["info:POLKADOT_BONDEXTRA_OK", "block:POLKADOT_BONDEXTRA_EXCEEDS_WITH_IN_FLIGHT"]));
    expect(check(again, "POLKADOT_BONDEXTRA_EXCEEDS_WITH_IN_FLIGHT")?.message).toContain(`id ${pending.transaction.id} BONDEXTRA`);
    expect(check(again, "POLKADOT_BONDEXTRA_EXCEEDS_WITH_IN_FLIGHT")?.message).toContain("PENDING_APPROVAL");
    const recipient = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
    const send = await planWrite(planContext(bot), { kind: "send", account: "dot-vault", amount: half, max_fees: 20_000_000n, recipient, speed: "NORMAL" });
    expect(codes(send)).toEqual(expect.arrayContaining(["info:SEND_BALANCE_OK", "block:SEND_EXCEEDS_WITH_IN_FLIGHT"]));
  });

  it("a WITHDRAWUNBONDED in flight takes the unbonded funds a REBOND could draw on", async () => {
    const withdraw = await sendOnce(bot, await planWrite(planContext(bot), { kind: "polkadot_withdraw_unbonded", account: "dot-staking" }));
    if (withdraw.status !== "submitted") throw new Error(`the WITHDRAWUNBONDED was not submitted: ${withdraw.status}`);
    // The demo's dot-staking has 100 DOT unbonded and 200 DOT unbonding.
    const over = await planWrite(planContext(bot), { kind: "polkadot_rebond", account: "dot-staking", amount: 200n * DOT + 1n });
    expect(codes(over)).toEqual(expect.arrayContaining(["info:POLKADOT_REBOND_OK", "block:POLKADOT_REBOND_EXCEEDS_WITH_IN_FLIGHT"]));
    expect(check(over, "POLKADOT_REBOND_EXCEEDS_WITH_IN_FLIGHT")?.message).toContain(
      `id ${withdraw.transaction.id} WITHDRAWUNBONDED 100 DOT (1000000000000 planck) APPROVED`,
    );
    expect(codes(await planWrite(planContext(bot), { kind: "polkadot_rebond", account: "dot-staking", amount: 200n * DOT }))).toContain(
      "info:POLKADOT_REBOND_IN_FLIGHT_OK",
    );
  });

  it("warns, never passes silently, when the unfinished transactions cannot be listed", async () => {
    await control(slow, "PUT", "/faults", { error_rate: 1, error_status: 400, methods: ["GET"], path_prefix: "/transactions" });
    try {
      const plan = await planWrite(planContext(bot), { kind: "polkadot_unbond", account: "dot-staking", amount: DOT });
      expect(codes(plan)).toContain("warn:IN_FLIGHT_NOT_COUNTED");
      expect(check(plan, "IN_FLIGHT_NOT_COUNTED")?.message).toMatch(
        /could not be listed \(GET \/transactions\?account_id=\d+&status=PENDING_APPROVAL.* answered HTTP 400.*\): operations in flight were not counted against balances\.bonded$/,
      );
    } finally {
      await control(slow, "DELETE", "/faults");
    }
  });
});
