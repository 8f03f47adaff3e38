import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { SolanaStake } from "@custody/shared";
import { describe, expect, it } from "vitest";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, ownDepositCallData } from "./harness/demo-workspace.js";
import { dryRunAndConfirm } from "./harness/guarded-write.js";
import { startHoldingProxy } from "./harness/holding-proxy.js";
import { call, connectHarness, type Harness } from "./harness/mcp-harness.js";
import { useDemoSessions } from "./harness/demo-sessions.js";
import { answerTokens, countingAsk, TREASURY_TASKS } from "./harness/treasury-tasks.js";

// The treasury tasks of issue 14, each as an assistant would run it through the MCP server
// against the demo workspace: what it calls, and what the answers must let it say.
const demo = useDemoSessions();

type Amount = { base_units: string; display: string; unit: string };
const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n);

/** The emulator's simulated time now (its control plane), the clock every date of an answer counts from. */
async function serviceNow(): Promise<number> {
  return Number(((await control(demo.emulator, "GET", "/clock")) as { now_ms: number }).now_ms);
}

async function stakesOf(name: string): Promise<SolanaStake[]> {
  const account = await accountNamed(demo.emulator, name);
  return directClient(demo.emulator, DEMO.stakingBot).listSolanaStakes(account.id);
}

describe("what we hold: staked SOL, what is available and why, and when unbonded DOT unlocks", () => {
  it("counts as staked only stakes still staked, tells the deactivated ones apart as withdrawable, and says stakes are outside the balance", async () => {
    const answer = await call(demo.treasury.client, "get_holdings", {});
    const accounts = answer.structured.accounts as Record<string, unknown>[];
    const of = (name: string) => accounts.find((entry) => (entry.account as { name: string }).name === name) as Record<string, unknown>;
    const stakes = await stakesOf(DEMO.solTreasury);
    const total = (states: string[]) =>
      sum(stakes.filter((stake) => states.includes(stake.blockchain_state.status)).map((stake) => stake.blockchain_state.total_balance)).toString();
    expect(stakes.some((stake) => stake.blockchain_state.status === "deactivated")).toBe(true);
    const treasury = of(DEMO.solTreasury);
    expect((treasury.staked as Amount).base_units).toBe(total(["activating", "activated", "deactivating"]));
    expect((treasury.withdrawable as Amount).base_units).toBe(total(["deactivated"]));
    expect(treasury.staked_in_balance).toBe(false);
    expect(answer.text).toMatch(
      /sol-treasury<\/untrusted> \(1, Solana\): .*Staking \(outside the balance\): 2 activated stakes [0-9.]+ SOL; 1 deactivated stake [0-9.]+ SOL, withdrawable now/,
    );
    expect(answer.structured.networks).toContainEqual(expect.objectContaining({ network: "Solana", accounts: 2 }));
  });

  it(
    "says what this operator may move: a deactivated stake its rules do not let it withdraw is withdrawable " +
      "by those they name, not by it; each network's available and what it may send of it",
    async () => {
      const treasury = await call(demo.treasury.client, "get_holdings", { account: DEMO.solTreasury });
      expect(treasury.text).not.toContain("withdrawable now (solana_withdraw_stake)");
      expect(treasury.text).toMatch(
        /1 deactivated stake [0-9.]+ SOL, withdrawable now \(by <untrusted field="creators">staking-bot \(API\)<\/untrusted>; not by you, treasury-bot\)/,
      );
      expect(treasury.text).toMatch(/Solana \(solana_testnet\), 1 account: balance [0-9.]+ SOL, available [0-9.]+ SOL, staked/);
      const staking = await call(demo.staking.client, "get_holdings", {});
      expect(staking.text).toMatch(/1 deactivated stake [0-9.]+ SOL, withdrawable now \(solana_withdraw_stake\)/);
      // staking-bot creates sends on sol-treasury, not on sol-cold: of the network's available, only sol-treasury's is its to send.
      const accounts = staking.structured.accounts as { account: { name: string }; available: Amount }[];
      const available = (name: string) => accounts.find((entry) => entry.account.name === name)?.available.display;
      expect(staking.text).toContain(
        `(staking-bot may send ${available(DEMO.solTreasury)} SOL of it: the rest is on accounts whose transaction rule does not name it a creator)`,
      );
      expect(available(DEMO.solCold)).not.toBe("0");
    },
  );

  it("explains an available balance below the balance by the transactions holding funds, by id, and the staking lock", async () => {
    const answer = await call(demo.treasury.client, "get_holdings", {});
    const accounts = answer.structured.accounts as Record<string, unknown>[];
    const of = (name: string) => accounts.find((entry) => (entry.account as { name: string }).name === name) as Record<string, unknown>;
    const pending = (await directClient(demo.emulator).searchAllTransactions({ status: "PENDING_APPROVAL" })).find(
      (tx) => tx.account_id === (of(DEMO.solCold).account as { id: number }).id,
    );
    if (!pending) throw new Error("the demo workspace has no pending send on sol-cold");
    expect(of(DEMO.solCold).below_balance).toEqual({
      amount: expect.objectContaining({ base_units: (pending.amount + pending.max_fees).toString() }),
      holds: [
        {
          transaction_id: pending.id,
          type: "SEND",
          status: "PENDING_APPROVAL",
          amount: expect.objectContaining({ base_units: (pending.amount + pending.max_fees).toString() }),
        },
      ],
    });
    expect(answer.text).toContain(`held by transaction ${pending.id} (SEND PENDING_APPROVAL)`);
    expect(of(DEMO.dotStaking).below_balance).toMatchObject({ locked_by_staking: { display: "3500", unit: "DOT" }, holds: [] });
  });

  it("dates each unbonding chunk from the service's clock, not this machine's", async () => {
    // The service's clock two days ahead of this machine's: a date from the local clock would be two days early.
    await control(demo.emulator, "POST", "/clock/advance", { seconds: 2 * 86_400 });
    const dot = await accountNamed(demo.emulator, DEMO.dotStaking);
    if (dot.coin_fields.type !== "Polkadot") throw new Error("dot-staking is not a Polkadot account");
    const waiting = (dot.coin_fields as { balances: { unbonding: { waiting_time: number }[] } }).balances.unbonding[0]?.waiting_time ?? 0;
    const answer = await call(demo.treasury.client, "get_holdings", { account: DEMO.dotStaking });
    const now = await serviceNow();
    const chunk = ((answer.structured.accounts as Record<string, unknown>[])[0]?.unbonding as { unlocks_at: string; waiting_time_seconds: number }[])[0];
    expect(Math.abs(Date.parse(chunk?.unlocks_at ?? "") - (now + waiting * 1000))).toBeLessThan(5_000);
    expect(now - Date.now()).toBeGreaterThan(86_400_000);
    expect(answer.text).toContain(`unbonding 200 DOT unlocks ${new Date(Date.parse(chunk?.unlocks_at ?? "")).toISOString().slice(0, 16)}Z`);
  });
});

/** The id of the user who created a transaction, as the service records it. */
async function transactionCreator(transactionId: number): Promise<number> {
  return (await directClient(demo.emulator).getTransaction(transactionId)).created_by;
}

describe("the pending approvals, in one call", () => {
  type Pending = {
    transaction_id: number;
    account: { name: string };
    amount: Amount;
    created_by: { id: number; username: string | null };
    missing: { step: number; needs: number; of: { username: string }[] }[];
    operator_can_approve: boolean;
    expires_at: string;
  };

  it(
    "lists every transaction waiting with its account, amounts in both units, creator and missing " +
      "approvers by name, whether this operator can approve, and its expiry",
    async () => {
      // dot-vault's second step also admits staking-bot: a send treasury-bot creates there waits for one of them.
      const vault = await accountNamed(demo.emulator, DEMO.dotVault);
      const rules = vault.governance_rules;
      if (!rules) throw new Error("dot-vault reports no rules");
      const withStakingBot = {
        ...rules,
        transaction: {
          ...rules.transaction,
          steps: [
            rules.transaction.steps[0],
            {
              quorum: 1,
              approvers: [
                { username: DEMO.stakingBot, is_api: true },
                { username: "dana.approver", is_api: false },
              ],
            },
          ],
        },
      };
      await control(demo.emulator, "PUT", `/accounts/${vault.id}/governance`, withStakingBot);
      const payee = await accountNamed(demo.emulator, DEMO.dotStaking);
      const { confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", {
        account: DEMO.dotVault,
        recipient: payee.address,
        amount: "12.5",
        unit: "DOT",
      });
      const created = (confirmed.structured.transaction as { id: number }).id;

      const answer = await call(demo.staking.client, "list_pending_approvals", {});
      const waiting = await directClient(demo.emulator).searchAllTransactions({ status: "PENDING_APPROVAL" });
      const pending = answer.structured.pending as Pending[];
      expect(pending.map((item) => item.transaction_id).sort()).toEqual(waiting.map((tx) => tx.id).sort());
      const mine = pending.find((item) => item.transaction_id === created);
      expect(mine).toMatchObject({
        account: { name: DEMO.dotVault },
        amount: { base_units: "125000000000", display: "12.5", unit: "DOT" },
        created_by: { id: await transactionCreator(created), username: DEMO.treasuryBot },
        missing: [{ step: 2, needs: 1, of: [{ username: DEMO.stakingBot }, { username: "dana.approver" }] }],
        operator_can_approve: true,
      });
      // The request expires 7 days after its creation, by the service's clock.
      const createdOn = Date.parse(waiting.find((tx) => tx.id === created)?.created_on ?? "");
      expect(Date.parse(mine?.expires_at ?? "")).toBe(createdOn + 7 * 86_400_000);
      for (const other of pending.filter((item) => item.transaction_id !== created)) expect(other.operator_can_approve).toBe(false);
      expect(answer.text).toContain(`#${created} SEND on <untrusted field="account">dot-vault</untrusted>`);
      expect(answer.text).toMatch(/12\.5 DOT \(125000000000 planck\)/);
      expect(answer.text).toContain(
        'step 2 needs 1 of <untrusted field="approvers">staking-bot (API), dana.approver ' +
          "(person)</untrusted>; staking-bot can approve it (approve_transaction); expires ",
      );
      expect(answer.text).not.toMatch(/created_by": ?\d/);

      // The assistant approves the one it can, and it leaves the list.
      const approved = await dryRunAndConfirm(demo.staking.client, "approve_transaction", { transaction_id: created });
      expect(approved.confirmed.structured.status).toBe("submitted");
      const after = await call(demo.staking.client, "list_pending_approvals", {});
      expect((after.structured.pending as Pending[]).map((item) => item.transaction_id)).not.toContain(created);
    },
  );
});

describe("who created it: by id and name wherever a transaction is answered", () => {
  it("get_transaction, search_transactions, list_activity, get_transaction_history and get_request_status give created_by as { id, username }", async () => {
    const { confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", {
      account: DEMO.solCold,
      recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
      amount: "0.5",
      unit: "SOL",
      note: "creator check",
    });
    const id = (confirmed.structured.transaction as { id: number }).id;
    const creator = { id: await transactionCreator(id), username: DEMO.treasuryBot };
    const got = await call(demo.treasury.client, "get_transaction", { transaction_id: id });
    expect((got.structured.transaction as { created_by: unknown }).created_by).toEqual(creator);
    const searched = await call(demo.treasury.client, "search_transactions", { label: "creator check" });
    expect((searched.structured.transactions as { id: number; created_by: unknown }[]).find((tx) => tx.id === id)?.created_by).toEqual(creator);
    const at = Date.parse((await directClient(demo.emulator).getTransaction(id)).created_on);
    const activity = await call(demo.treasury.client, "list_activity", {
      account: DEMO.solCold,
      since: new Date(at - 1000).toISOString(),
      until: new Date(at + 1000).toISOString(),
    });
    expect((activity.structured.transactions as { transaction_id: number; created_by: unknown }[]).find((tx) => tx.transaction_id === id)?.created_by).toEqual(
      creator,
    );
    const history = await call(demo.treasury.client, "get_transaction_history", { transaction_id: id });
    expect((history.structured.history as { created_by: unknown }[][]).flat()[0]?.created_by).toEqual(creator);
    const request = await call(demo.treasury.client, "get_request_status", { transaction_id: id });
    expect((request.structured.request as { created_by: unknown }).created_by).toEqual(creator);
  });
});

describe("onboarding an operator", () => {
  it("register_operator answers the request id and the Admin rule's quorum; a repeated create_operator says what to do next", async () => {
    const created = await call(demo.treasury.client, "create_operator", { name: "payout-bot" });
    const deviceId = (created.structured.api_user as { device_id: string }).device_id;
    // Created again before it is registered: the next step, not a raw 409.
    const early = await call(demo.treasury.client, "create_operator", { name: "payout-bot" });
    expect(early.isError).toBe(true);
    expect(early.text).not.toContain("HTTP 409");
    expect(early.text).toContain("is not registered in the workspace. Next: an administrator invites it there with this name and its device_id");
    expect(early.text).toContain("then call register_operator with the UUID");

    const invitation = (await control(demo.emulator, "POST", "/invitations", { username: "payout-bot", device_id: deviceId })) as { uuid: string };
    const registered = await call(demo.treasury.client, "register_operator", { name: "payout-bot", uuid: invitation.uuid });
    const user = (await directClient(demo.emulator).listAllUsers()).find((candidate) => candidate.username === "payout-bot");
    const admin = (await control(demo.emulator, "GET", "/admin-rule")) as { quorum: number; approvers: string[] };
    expect(user?.last_request).toBeGreaterThan(0);
    expect(registered.structured).toMatchObject({
      success: true,
      user_status: "PENDING_APPROVAL",
      request: { id: user?.last_request, rule: "admin", quorum: admin.quorum, missing: [{ step: 1, needs: admin.quorum, of: admin.approvers }] },
    });
    expect(registered.text).toContain(
      `request ${user?.last_request} (CREATE_USER, the workspace's admin rule, quorum ${admin.quorum}) awaits the administrators`,
    );

    // Created again once registered: where it stands.
    const again = await call(demo.treasury.client, "create_operator", { name: "payout-bot" });
    expect(again.text).toContain(`is registered: request ${user?.last_request}`);
    const active = await call(demo.treasury.client, "create_operator", { name: DEMO.stakingBot });
    expect(active.text).toContain("is registered and ACTIVE: nothing to do");
  });
});

describe("when can it be withdrawn: dates, not epochs and seconds", () => {
  type Clock = { now_ms: number; next_epoch_at: string };
  const clock = async () => (await control(demo.emulator, "GET", "/clock")) as Clock;
  const nearBoundary = (date: string | undefined, boundary: string) => {
    // Never before the epoch boundary, and from the demo's stakes within two minutes of it (dates are rounded up to the minute).
    expect(Date.parse(date ?? "")).toBeGreaterThanOrEqual(Date.parse(boundary));
    expect(Date.parse(date ?? "") - Date.parse(boundary)).toBeLessThan(120_000);
  };

  it("dates a deactivation's withdrawal, an early withdrawal's block says when it will be allowed, and it is allowed then", async () => {
    const active = (await stakesOf(DEMO.solTreasury)).find((stake) => stake.blockchain_state.status === "activated");
    if (!active) throw new Error("the demo workspace has no activated stake");
    const args = { account: DEMO.solTreasury, stake_uid: active.uid };
    const { next_epoch_at: boundary } = await clock();
    const { dry } = await dryRunAndConfirm(demo.staking.client, "solana_deactivate_stake", args);
    nearBoundary((dry.structured.dates as { withdrawable_at?: string }).withdrawable_at, boundary);
    expect(dry.text).toMatch(/Dates: withdrawable_at \d{4}-\d\d-\d\dT/);

    const listed = await call(demo.staking.client, "list_solana_stakes", { account: DEMO.solTreasury });
    const stake = (listed.structured.stakes as { uid: string; withdrawable: boolean; withdrawable_at: string | null }[]).find(
      (candidate) => candidate.uid === active.uid,
    );
    expect(stake?.withdrawable).toBe(false);
    nearBoundary(stake?.withdrawable_at ?? undefined, boundary);
    expect(listed.text).toMatch(new RegExp(`stake ${active.uid} deactivating: .*, withdrawable from about \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ`));

    const early = await call(demo.staking.client, "solana_withdraw_stake", args);
    const block = (early.structured.checks as { code: string; message: string; facts: Record<string, string> }[]).find(
      (check) => check.code === "SOLANA_WITHDRAW_NOT_DEACTIVATED",
    );
    nearBoundary(block?.facts.allowed_at, boundary);
    expect(block?.message).toMatch(/it becomes withdrawable at the start of the next epoch, about \d{4}-\d\d-\d\dT\d\d:\d\dZ \(in \d+ (d|h|min)/);

    await control(demo.emulator, "POST", "/clock/advance", { epochs: 1 });
    const due = await call(demo.staking.client, "solana_withdraw_stake", args);
    expect(due.structured.status).toBe("dry_run");
  });

  it("a withdrawal of unbonded DOT before any is unbonded is told when the soonest chunk unlocks", async () => {
    await dryRunAndConfirm(demo.treasury.client, "polkadot_withdraw_unbonded", { account: DEMO.dotStaking });
    // Processed now, not after some time: the first withdrawal is no longer in flight when the second is planned.
    await control(demo.emulator, "POST", "/process");
    const early = await call(demo.treasury.client, "polkadot_withdraw_unbonded", { account: DEMO.dotStaking });
    const block = (early.structured.checks as { code: string; message: string; facts: Record<string, string> }[]).find(
      (check) => check.code === "POLKADOT_WITHDRAW_NOTHING_UNBONDED",
    );
    const dot = await accountNamed(demo.emulator, DEMO.dotStaking);
    const waiting = (dot.coin_fields as { balances: { unbonding: { waiting_time: number }[] } }).balances.unbonding[0]?.waiting_time ?? 0;
    expect(Math.abs(Date.parse(block?.facts.allowed_at ?? "") - ((await clock()).now_ms + waiting * 1000))).toBeLessThan(5_000);
    expect(block?.message).toMatch(
      /the soonest \(\d+ base units\) unbonds at \d{4}-\d\d-\d\dT\d\d:\d\dZ \(in \d+ d( \d+ h)?\), when this withdrawal is allowed/,
    );
  });
});

/** An answer's size as the issue counts it: text and structuredContent together, bytes / 4 (the bench counts the same). */
const tokens = answerTokens;

describe("unbond 250 DOT if we keep 3,000 bonded", () => {
  it("the dry run shows bonded before and after, so the condition can be read off it", async () => {
    const dry = await call(demo.treasury.client, "polkadot_unbond", { account: DEMO.dotStaking, amount: "250", unit: "DOT" });
    expect(dry.structured.status).toBe("dry_run");
    const bonded = (dry.structured.balances as { name: string; before: Amount; after: Amount }[]).find((change) => change.name === "balances.bonded");
    expect(bonded).toEqual({
      name: "balances.bonded",
      before: { base_units: "32000000000000", display: "3200", unit: "DOT" },
      after: { base_units: "29500000000000", display: "2950", unit: "DOT" },
    });
    expect(dry.text).toContain("Balances: balances.bonded 3200 → 2950 DOT; balances.total_unbonding 200 → 450 DOT.");
    // The eight checks restating fixed values are one line, not eight.
    expect(dry.text).toMatch(/^Passed: POLKADOT_AMOUNT_OK, POLKADOT_UNBOND_OK, .*\.$/m);
    expect(dry.structured.checks).toBeUndefined();
  });
});

describe("a plain send, compact, and its outcome complete", () => {
  const recipient = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";

  it("numbers a governance step the same in the structure as in the text: step 2 is step 2", async () => {
    const dry = await call(demo.treasury.client, "create_transaction", { account: DEMO.solCold, recipient, amount: "1", unit: "SOL" });
    expect(dry.text).toContain("pending approval: step 2 needs 1 more approval(s)");
    expect((dry.structured.governance as { pending_steps: unknown[] }).pending_steps).toEqual([expect.objectContaining({ step: 2, missing: 1 })]);
    expect((dry.structured.governance as { pending_steps: object[] }).pending_steps[0]).not.toHaveProperty("index");
  });

  it("dry run at most 530 tokens with the token once in the text and once in the structure; the submission at most 250, referring to it, with the fee and hash once broadcast", async () => {
    const args = { account: DEMO.solTreasury, recipient, amount: "1.5", unit: "SOL", note: "Payroll April" };
    const { dry, confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", args);
    // Issue 14's 500, plus the token's second copy issue 21 puts in structuredContent (about 27 tokens).
    expect(tokens(dry)).toBeLessThanOrEqual(530);
    const token = dry.token as string;
    expect(dry.text.split(token)).toHaveLength(2);
    expect(JSON.stringify(dry.structured).split(token)).toHaveLength(2);
    expect(dry.structured.fee).toEqual({ estimated: { base_units: "5000", display: "0.000005", unit: "SOL" } });
    expect(tokens(confirmed)).toBeLessThanOrEqual(250);
    expect(confirmed.text).toContain(`SUBMITTED (the dry run ${dry.structured.reference as string})`);
    const id = (confirmed.structured.transaction as { id: number }).id;
    const recorded = await directClient(demo.emulator).getTransaction(id);
    expect(recorded.status).toBe("SUBMITTED");
    expect(confirmed.structured.transaction).toMatchObject({
      id,
      status: "SUBMITTED",
      fees: { base_units: String(recorded.fees), unit: "SOL" },
      tx_hash: recorded.tx_hash,
    });
    expect(confirmed.text).toContain(`tx_hash ${recorded.tx_hash ?? "?"}`);
    // Neither the body nor the checks are repeated.
    expect(confirmed.text).not.toContain("request.body");
  });

  it("a program that reads only structuredContent confirms with the confirmation_token it gives in token mode", async () => {
    const args = { account: DEMO.solTreasury, recipient, amount: "0.2", unit: "SOL", note: "structured only" };
    const dry = await demo.treasury.client.callTool({ name: "create_transaction", arguments: args });
    const structured = dry.structuredContent as { status: string; confirmation_token?: string; expires_at: string };
    expect(structured.status).toBe("dry_run");
    expect(structured.confirmation_token).toMatch(/^v2\./);
    const confirmed = await demo.treasury.client.callTool({
      name: "create_transaction",
      arguments: { ...args, confirmation_token: structured.confirmation_token },
    });
    expect((confirmed.structuredContent as { status: string }).status).toBe("submitted");
  });

  it("a submission waiting for approval names the approvers still needed and the expiry", async () => {
    const { confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", { account: DEMO.solCold, recipient, amount: "2", unit: "SOL" });
    const id = (confirmed.structured.transaction as { id: number }).id;
    const recorded = await directClient(demo.emulator).getTransaction(id);
    expect(confirmed.structured.waiting).toEqual({
      missing: [{ step: 2, needs: 1, of: ["dana.approver", "erin.approver"] }],
      expires_at: new Date(Date.parse(recorded.created_on) + 7 * 86_400_000).toISOString(),
    });
    expect(confirmed.text).toMatch(
      /Waiting for approval: step 2 needs 1 of <untrusted field="approvers">dana.approver \(person\), erin.approver \(person\)<\/untrusted>; expires \d{4}-\d\d-\d\dT\d\d:\d\dZ \(in 7 d\)\./,
    );
    expect(tokens(confirmed)).toBeLessThanOrEqual(250);
  });

  it("shows the estimated fee on Solana stakes and Polkadot staking too, not 'fees not known'", async () => {
    const stake = await call(demo.staking.client, "solana_create_stake", { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator: recipient });
    expect(stake.structured.fee).toEqual({ estimated: { base_units: "5000", display: "0.000005", unit: "SOL" } });
    expect(stake.text).toContain("Fee: 0.000005 SOL (5000 lamport) estimated.");
    const bond = await call(demo.treasury.client, "polkadot_bond_extra", { account: DEMO.dotStaking, amount: "1", unit: "DOT" });
    expect(bond.structured.fee).toEqual({ estimated: { base_units: "0", display: "0", unit: "DOT" } });
    expect(`${stake.text}${bond.text}`).not.toContain("fees not known");
  });

  it("a reused token names the transaction it created; a token for other arguments names the field that differs", async () => {
    const args = { account: DEMO.solTreasury, recipient, amount: "0.25", unit: "SOL" };
    const { dry, confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", args);
    const id = (confirmed.structured.transaction as { id: number }).id;
    const reused = await call(demo.treasury.client, "create_transaction", { ...args, confirmation_token: dry.token });
    expect(reused.structured).toMatchObject({ status: "refused", reason: "reused", transaction_id: id });
    expect(reused.text).toContain(`it created transaction ${id}`);

    const next = await call(demo.treasury.client, "create_transaction", { ...args, amount: "0.3" });
    const changed = await call(demo.treasury.client, "create_transaction", { ...args, amount: "0.35", confirmation_token: next.token });
    expect(changed.structured).toMatchObject({ status: "refused", reason: "digest_mismatch" });
    expect(changed.text).toContain("the request differs from the dry run in amount (");
  });
});

describe("who can act", () => {
  it("a governance block names the rule's creators and approvers and the operator this server acts as", async () => {
    const blocked = await call(demo.treasury.client, "solana_create_stake", {
      account: DEMO.solTreasury,
      amount: "2",
      unit: "SOL",
      validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
    });
    expect(blocked.structured.status).toBe("blocked");
    expect(blocked.text).toContain(
      "operator treasury-bot is not a creator in the account's staking rule (creators: staking-bot (API); approvers: step 1, 1 of staking-bot (API))",
    );
    expect(blocked.text).toContain("This server acts as operator treasury-bot only");
    const health = await call(demo.treasury.client, "health_check", {});
    expect(health.text).toContain('<untrusted field="name">sol-treasury</untrusted> (1): creates under transaction; approves under transaction');
  });
});

describe("near misses", () => {
  it.each([
    ["eth_ops", "eth-ops"],
    ["sol treasury", "sol-treasury"],
    ["dot-stake", "dot-staking"],
  ])("%s: suggests %s", async (given, meant) => {
    const answer = await call(demo.treasury.client, "get_holdings", { account: given });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`did you mean <untrusted field="account.name">${meant}</untrusted>`);
  });

  it("warns of a unit that makes the amount absurd for the account", async () => {
    const huge = await call(demo.treasury.client, "create_transaction", {
      account: DEMO.solCold,
      recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
      amount: "1500000000",
      unit: "SOL",
    });
    expect(huge.text).toContain("AMOUNT_UNIT_SUSPECT");
    expect(huge.text).toContain("if 1500000000 was meant in lamport, it is 1.5 SOL");
    const tiny = await call(demo.treasury.client, "create_transaction", {
      account: DEMO.solTreasury,
      recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
      amount: "1500",
      unit: "lamport",
    });
    expect(tiny.structured.status).toBe("dry_run");
    expect((tiny.structured.checks as { code: string }[]).map((check) => check.code)).toEqual(["AMOUNT_UNIT_SUSPECT"]);
    expect(tiny.text).toContain("if 1500 was meant in SOL, it is 1500 SOL");
  });
});

describe("what moved since yesterday, and is anything stuck or uncertain", () => {
  it(
    "is answered by list_activity in one call within 2,500 tokens: the window's " +
      "transactions by date and account, the lost answer and what its look-ups found, " +
      "the approval waiting over a day and who is still needed",
    async () => {
      const proxy = await startHoldingProxy(demo.emulator);
      const session = await connectHarness(demo.emulator, { baseUrl: proxy.baseUrl, timeoutMs: 1000, lookupFirstDelayMs: 100, lookupHorizonMs: 500 });
      try {
        const recipient = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
        // A send on sol-cold waits for a person; a day and an hour later it still does.
        const waiting = await dryRunAndConfirm(session.client, "create_transaction", { account: DEMO.solCold, recipient, amount: "2", unit: "SOL" });
        const waitingId = (waiting.confirmed.structured.transaction as { id: number }).id;
        await control(demo.emulator, "POST", "/clock/advance", { seconds: 25 * 3600 });
        // Since: a send that went through, and one whose POST was lost on the way (never applied, but nobody can know).
        const sent = await dryRunAndConfirm(session.client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "1.5", unit: "SOL" });
        const sentId = (sent.confirmed.structured.transaction as { id: number }).id;
        const dry = await call(session.client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "0.75", unit: "SOL" });
        proxy.hold("POST", "/transactions", { kind: "drop" });
        const pending = call(session.client, "create_transaction", {
          account: DEMO.solTreasury,
          recipient,
          amount: "0.75",
          unit: "SOL",
          confirmation_token: dry.token,
        });
        await proxy.held();
        proxy.release();
        expect((await pending).structured.status).toBe("uncertain");
        await session.ctx.road.lookupsSettled();
        const reference = dry.structured.reference as string;

        const answer = await call(session.client, "list_activity", {});
        expect(answer.isError).toBe(false);
        expect(tokens(answer)).toBeLessThanOrEqual(2500);
        const moved = answer.structured.transactions as {
          transaction_id: number;
          account: { id: number; name: string };
          amount: Amount;
          status: string;
          created_on: string;
        }[];
        // Only what moved in the last 24 hours: the send, not the seed's history nor the send created a day before.
        expect(moved.map((tx) => tx.transaction_id)).toEqual([sentId]);
        const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
        expect(moved[0]).toMatchObject({
          account: { id: treasury.id, name: DEMO.solTreasury },
          amount: { base_units: "1500000000", display: "1.5", unit: "SOL" },
          status: "SUBMITTED",
        });
        expect(answer.text).toMatch(
          new RegExp(
            `#${sentId} \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ <untrusted ` +
              `field="account">sol-treasury</untrusted> \\(${treasury.id}\\) SEND 1\\.5 SOL \\(1500000000 ` +
              "lamport\\) SUBMITTED",
          ),
        );

        // Each look-up is a `looked_up` record; the store's trace keeps how many and the last one's time and finding.
        const lookups = readFileSync(session.auditPath, "utf8")
          .split("\n")
          .filter((line) => line.includes('"event":"looked_up"') && line.includes(reference));
        expect(lookups.length).toBeGreaterThan(0);
        const lastAt = (JSON.parse(lookups.at(-1) ?? "{}") as { at: string }).at;
        expect(answer.structured.uncertain_writes).toEqual([
          expect.objectContaining({
            reference,
            tool: "create_transaction",
            outcome: "unknown",
            transaction_id: null,
            looking_up: false,
            answer_lost_at: expect.any(String),
            concluded_at: expect.any(String),
            lookups: lookups.length,
            last_lookup: { at: lastAt, found: "nothing" },
          }),
        ]);
        expect(answer.text).toContain(`${reference} create_transaction sent `);
        expect(answer.text).toContain(
          `UNKNOWN, not found by its reference in ${lookups.length} ` +
            `look-up${lookups.length === 1 ? "" : "s"} until ${lastAt.slice(0, 16)}Z, which ` +
            "have stopped: it may still be applied and counts against the daily limit",
        );
        expect(answer.text).toContain(
          `search_transactions label ${reference} tells if it appeared; to send it again anyway, a new dry run of it ` +
            "names the repeat_of to pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
        );
        // The repeat_of value is given by the dry run's finding only, never handed out beforehand.
        expect(answer.text).not.toContain(":may-pay-twice");

        const stuck = answer.structured.stuck as { transaction_id: number; missing: unknown }[];
        expect(stuck.map((item) => item.transaction_id)).toContain(waitingId);
        expect(stuck.find((item) => item.transaction_id === waitingId)?.missing).toEqual([
          {
            step: 2,
            needs: 1,
            of: [
              { username: "dana.approver", is_api: false },
              { username: "erin.approver", is_api: false },
            ],
          },
        ]);
        expect(answer.text).toMatch(
          new RegExp(
            `#${waitingId} SEND on <untrusted field="account">sol-cold</untrusted> \\(\\d+\\), waiting 1 d ` +
              "1 h: 2 SOL \\(2000000000 lamport\\); step 2 needs 1 of <untrusted " +
              'field="approvers">dana.approver \\(person\\), erin.approver \\(person\\)</untrusted>',
          ),
        );
        expect(answer.structured.partial).toEqual([]);
      } finally {
        await session.close();
        await proxy.close();
      }
    },
    30_000,
  );

  /**
   * A write confirmed through a proxy that drops its POST (never applied, but nobody can know), whose
   * look-ups then stop without finding it; `check` reads the answers of the session that sent it.
   */
  async function lostThenConcluded(
    operator: string,
    tool: string,
    args: Record<string, unknown>,
    path: string,
    check: (session: Harness, reference: string) => Promise<void>,
  ): Promise<void> {
    const proxy = await startHoldingProxy(demo.emulator);
    const session = await connectHarness(demo.emulator, { operator, baseUrl: proxy.baseUrl, timeoutMs: 1000, lookupFirstDelayMs: 100, lookupHorizonMs: 500 });
    try {
      const dry = await call(session.client, tool, args);
      proxy.hold("POST", path, { kind: "drop" });
      const pending = call(session.client, tool, { ...args, confirmation_token: dry.token });
      await proxy.held();
      proxy.release();
      expect((await pending).structured.status).toBe("uncertain");
      await session.ctx.road.lookupsSettled();
      await check(session, dry.structured.reference as string);
    } finally {
      await session.close();
      await proxy.close();
    }
  }

  it("lists a write whose outcome is still unknown whatever window is asked: one sent before the window's start too", async () => {
    const args = { account: DEMO.solTreasury, recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk", amount: "0.3", unit: "SOL" };
    await lostThenConcluded(DEMO.treasuryBot, "create_transaction", args, "/transactions", async (session, reference) => {
      const lastLookup = readFileSync(session.auditPath, "utf8")
        .split("\n")
        .filter((line) => line.includes('"event":"looked_up"'))
        .at(-1);
      // A window that starts after the write was sent, and after its last look-up.
      const since = new Date(Date.parse((JSON.parse(lastLookup ?? "{}") as { at: string }).at) + 1).toISOString();
      const answer = await call(session.client, "list_activity", { since });
      expect(answer.structured.uncertain_writes).toEqual([expect.objectContaining({ reference, outcome: "unknown" })]);
      expect(answer.text).toContain(`${reference} create_transaction sent `);
    });
  }, 30_000);

  it("says how the look-ups sought a lost Solana stake, whose body carries no reference: among the account's new transactions", async () => {
    const args = { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" };
    await lostThenConcluded(DEMO.stakingBot, "solana_create_stake", args, "/solana/", async (session, reference) => {
      const answer = await call(session.client, "list_activity", { account: DEMO.solTreasury });
      expect(answer.structured.uncertain_writes).toEqual([expect.objectContaining({ reference, tool: "solana_create_stake", outcome: "unknown" })]);
      expect(answer.text).toMatch(/UNKNOWN, not found among the account's new transactions in \d+ look-ups? until \S+Z/);
      expect(answer.text).not.toContain("by its reference");
      expect(answer.text).toContain("search_transactions on its account since it was sent tells if it appeared");
    });
  }, 30_000);

  it("a Solana stake's confirmation gives the new stake's uid once the account's stakes list it", async () => {
    const args = { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" };
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_create_stake", args);
    const transaction = confirmed.structured.transaction as { stake_uid?: string; tx_hash?: string };
    expect(transaction.tx_hash).toBeDefined();
    const created = (await stakesOf(DEMO.solTreasury)).find((stake) => stake.uid === transaction.stake_uid);
    expect(created?.blockchain_state.total_balance).toBe(2_000_000_000n);
    expect(confirmed.text).toContain(`New stake: uid ${created?.uid} (stake account ${created?.blockchain_state.pub_key}).`);
  });

  it(
    "a Solana stake whose answer was lost and that its look-up found is said found among the " +
      "account's new transactions, not by a reference its body does not carry",
    async () => {
      const args = { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" };
      const dry = await call(demo.staking.client, "solana_create_stake", args);
      await control(demo.emulator, "PUT", "/faults", { drop_after_rate: 1, methods: ["POST"], path_prefix: "/solana", remaining: 1 });
      const confirmed = await call(demo.staking.client, "solana_create_stake", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured).toMatchObject({ status: "submitted", looked_up: true });
      expect(confirmed.text).toContain("the transaction was found among the account's new transactions and was not sent again");
      expect(confirmed.text).not.toContain("by its reference");
    },
  );

  it("reads a busy window in bounded pages and says what it left out, within the answer's budget", async () => {
    // 30,000 transactions over the seed's 30 days: about 1,000 in the last 24 hours.
    await control(demo.emulator, "POST", "/seed/scale", { accounts: 1, transactions: 30_000, prefix: "busy-" });
    const activity = await call(demo.treasury.client, "list_activity", {});
    expect(activity.isError).toBe(false);
    expect(tokens(activity)).toBeLessThanOrEqual(2500);
    expect(activity.structured.transactions).toHaveLength(18);
    expect(activity.structured.partial).toEqual([
      expect.stringMatching(/^transactions: the newest 500 read, back to \S+, not the whole window; narrow with until or account$/),
      expect.stringMatching(/^transactions: the newest 18 of \d{3} shown; narrow with until or account$/),
    ]);
    expect(activity.text).toContain("Partial: transactions: the newest 500 read");
    const searched = await call(demo.treasury.client, "search_transactions", { since: "2020-01-01T00:00Z", page_size: 5 });
    expect(searched.structured.transactions).toHaveLength(5);
    expect(searched.structured.page_info).toMatchObject({
      count: 1000,
      has_next_page: true,
      partial: expect.stringMatching(/^partial: the newest 1000 transactions were read/),
    });
    expect(searched.text).toContain("(partial: the newest 1000 transactions were read");
  }, 30_000);

  it("a search names a transaction's account by its id when the service no longer finds that account, instead of failing the whole search", async () => {
    const newest = (await directClient(demo.emulator).searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
    if (newest === undefined) throw new Error("the demo workspace has no transaction");
    const proxy = await startHoldingProxy(demo.emulator);
    const proxied = await connectHarness(demo.emulator, { baseUrl: proxy.baseUrl });
    try {
      proxy.hold("GET", `/accounts/${newest.account_id}`, { kind: "answer", status: 404, text: '{"error":"AccountNotFound","message":"no such account"}' });
      const searched = await call(proxied.client, "search_transactions", { page_size: 1 });
      expect(searched.isError, searched.text).toBeFalsy();
      expect(searched.text).toContain(`transaction ${newest.id} `);
      expect(searched.text).toContain(` account ${newest.account_id} `);
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });

  it("a window read from a service that pages in fewer than asked goes on to the next page, and still says what it left out", async () => {
    // A service that answers at most 50 a page, whatever page_size asks, in front of 3,000 transactions.
    await control(demo.emulator, "POST", "/seed/scale", { accounts: 1, transactions: 3000, prefix: "paged-" });
    const upstream = new URL(demo.emulator.baseUrl);
    const capping = createServer((req, res) => {
      const url = new URL(req.url ?? "/", upstream);
      if (Number(url.searchParams.get("page_size")) > 50) url.searchParams.set("page_size", "50");
      const outgoing = request(url, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(outgoing);
    });
    await new Promise<void>((resolve) => capping.listen(0, "127.0.0.1", resolve));
    const proxied = await connectHarness(demo.emulator, { baseUrl: `http://127.0.0.1:${(capping.address() as AddressInfo).port}${upstream.pathname}` });
    try {
      const searched = await call(proxied.client, "search_transactions", { since: "2020-01-01T00:00Z", page_size: 5 });
      expect(searched.structured.page_info, searched.text).toMatchObject({
        count: 1000,
        has_next_page: true,
        partial: expect.stringMatching(/^partial: the newest 1000 transactions were read/),
      });
    } finally {
      await proxied.close();
      await new Promise<void>((resolve) => capping.close(() => resolve()));
    }
  }, 30_000);

  it("search_transactions takes since and until, and each line carries the date and the account", async () => {
    const { confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", {
      account: DEMO.solTreasury,
      recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
      amount: "0.5",
      unit: "SOL",
    });
    const id = (confirmed.structured.transaction as { id: number; created_on: string }).id;
    const created = (await directClient(demo.emulator).getTransaction(id)).created_on;
    const at = Date.parse(created);
    const within = await call(demo.treasury.client, "search_transactions", {
      since: new Date(at - 1000).toISOString(),
      until: new Date(at + 1000).toISOString(),
    });
    expect((within.structured.transactions as { id: number }[]).map((tx) => tx.id)).toEqual([id]);
    const treasury = await accountNamed(demo.emulator, DEMO.solTreasury);
    expect(within.text).toContain(
      `transaction ${id} ${new Date(at).toISOString().slice(0, 16)}Z <untrusted ` +
        `field="account">sol-treasury</untrusted> (${treasury.id}) SEND SUBMITTED: 0.5 SOL`,
    );
    const before = await call(demo.treasury.client, "search_transactions", { until: new Date(at - 1000).toISOString(), page_size: 100 });
    expect((before.structured.transactions as { id: number }[]).map((tx) => tx.id)).not.toContain(id);
    expect((before.structured.transactions as unknown[]).length).toBeGreaterThan(0);
    const backwards = await call(demo.treasury.client, "search_transactions", { since: new Date(at).toISOString(), until: new Date(at - 1000).toISOString() });
    expect(backwards.isError).toBe(true);
    expect(backwards.text).toContain("must not be after until");
  });
});

describe("staking ETH: which contracts, where the deposit data comes from", () => {
  const beaconDeposit = "0x00000000219ab540356cBB839Cbe05303d7705Fa";

  it(
    "a blocked dry run names the whitelist's addresses and the policy's allowed_contracts, says the deposit " +
      "data comes from the staking provider, and states no max fees it could not build",
    async () => {
      const session = await connectHarness(demo.emulator, { policy: { allowed_contracts: [beaconDeposit] } });
      try {
        const unlisted = await call(session.client, "ethereum_stake", {
          account: DEMO.ethOps,
          contract: DEMO.kilnContract,
          contract_data: "0xdeadbeef",
          amount: "32",
          unit: "ETH",
        });
        expect(unlisted.structured.status).toBe("blocked");
        expect(unlisted.text).toContain(
          `is not on the smart-contract rule's whitelist (it holds ${DEMO.usdcContract}; the local policy's ` +
            `allowed_contracts: ${beaconDeposit}): stake through the staking provider's deposit contract`,
        );
        expect(unlisted.text).not.toContain("address(es)");
        expect(unlisted.text).toContain(
          "the deposit data (validator pubkey, withdrawal_credentials, signature, deposit_data_root) comes from the staking provider",
        );
      } finally {
        await session.close();
      }
      const unbuilt = await call(demo.staking.client, "ethereum_stake", {
        account: DEMO.ethStaking,
        contract: DEMO.kilnContract,
        contract_data: "0x12",
        amount: "32",
        unit: "ETH",
      });
      expect(unbuilt.structured.status).toBe("blocked");
      expect(unbuilt.text).not.toMatch(/max.fees 0 ETH/);
      expect(unbuilt.text).toContain("no max fees (none given, none could be estimated)");
      expect(unbuilt.structured.amounts).toEqual({ amount: { base_units: "32000000000000000000", display: "32", unit: "ETH" } });
    },
  );

  it("get_transaction shows a contract call's data shortened, with its length, its digest and where a deposit withdraws to", async () => {
    const data = await ownDepositCallData(demo.emulator);
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "ethereum_stake", {
      account: DEMO.ethStaking,
      contract: DEMO.kilnContract,
      contract_data: data,
      amount: "32",
      unit: "ETH",
    });
    const id = (confirmed.structured.transaction as { id: number }).id;
    const answer = await call(demo.staking.client, "get_transaction", { transaction_id: id });
    const digest = createHash("sha256").update(data).digest("hex");
    const staking = await accountNamed(demo.emulator, DEMO.ethStaking);
    expect(answer.text).toContain(
      `contract_data: <untrusted field="contract_data">${data.slice(0, 74)}…</untrusted> (${data.length} ` +
        `characters, sha256 ${digest}; a beacon deposit withdrawing to ${staking.address})`,
    );
    expect(answer.text).not.toContain(data);
  });
});

describe("the treasury tasks as scripted scenarios (the bench runs the same), each within its bound", () => {
  it.each(TREASURY_TASKS.map((task) => [task.task, task] as const))("%s", async (_name, task) => {
    const session = task.operator === DEMO.stakingBot ? demo.staking : demo.treasury;
    const { ask, tally } = countingAsk((tool, args) => call(session.client, tool, args));
    await task.run(ask, { control: (method, path, body) => control(demo.emulator, method, path, body) });
    expect(tally.calls).toBeGreaterThan(0);
    if (task.target !== undefined) {
      expect(tally.calls).toBeLessThanOrEqual(task.target.calls);
      expect(tally.tokens).toBeLessThanOrEqual(task.target.tokens);
    }
  });
});
