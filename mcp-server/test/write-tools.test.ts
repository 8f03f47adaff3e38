import { mkdirSync, readFileSync, rmSync } from "node:fs";
import type { SolanaStake } from "@custody/shared";
import { beforeEach, describe, expect, it } from "vitest";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, ownDepositCallData } from "./harness/demo-workspace.js";
import { blockingCodes, dryRunAndConfirm, requestOf } from "./harness/guarded-write.js";
import { call, connectHarness } from "./harness/mcp-harness.js";
import { useDemoSessions } from "./harness/demo-sessions.js";

const demo = useDemoSessions();

async function stakes(): Promise<SolanaStake[]> {
  const account = await accountNamed(demo.emulator, DEMO.solTreasury);
  return directClient(demo.emulator, DEMO.stakingBot).listSolanaStakes(account.id);
}

async function stakeWith(action: string): Promise<SolanaStake> {
  const found = (await stakes()).find((stake) => stake.actions.some((element) => element.endsWith(`/${action}`)));
  if (!found) throw new Error(`no demo stake allows ${action}`);
  return found;
}

async function stakeWithout(action: string): Promise<SolanaStake> {
  const found = (await stakes()).find((stake) => !stake.actions.some((element) => element.endsWith(`/${action}`)));
  if (!found) throw new Error(`every demo stake allows ${action}`);
  return found;
}

function transactionOf(structured: Record<string, unknown>): { id: number; type: string; status: string } {
  return structured.transaction as { id: number; type: string; status: string };
}

describe("solana staking", () => {
  const validator = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";

  it("solana_create_stake: stakes and delegates, under the staking rule", async () => {
    const { dry, confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_create_stake", {
      account: DEMO.solTreasury,
      amount: "5",
      unit: "SOL",
      validator,
    });
    expect(requestOf(dry).body).toEqual({ amount: 5000000000, validator });
    // The text shows the body exactly as sent: the amount is a JSON integer on the wire.
    expect(dry.text).toContain(`<untrusted field="request.body">{"amount":5000000000,"validator":"${validator}"}</untrusted>`);
    expect(confirmed.structured.status).toBe("submitted");
    expect(transactionOf(confirmed.structured).type).toBe("STAKE_CREATE_DELEGATE");
  });

  it("solana_create_stake: blocks an amount not above the rent-exempt reserve", async () => {
    const dry = await call(demo.staking.client, "solana_create_stake", { account: DEMO.solTreasury, amount: "0.001", unit: "SOL", validator });
    expect(dry.structured.status).toBe("blocked");
    expect(blockingCodes(dry.structured)).toContain("SOLANA_STAKE_AMOUNT_NOT_ABOVE_RESERVE");
  });

  it("solana_create_stake: blocks an operator the staking rule does not list", async () => {
    const dry = await call(demo.treasury.client, "solana_create_stake", { account: DEMO.solTreasury, amount: "5", unit: "SOL", validator });
    expect(blockingCodes(dry.structured)).toContain("GOVERNANCE_NOT_ALLOWED");
  });

  it("solana_create_stake: refuses an account on another network", async () => {
    const dry = await call(demo.staking.client, "solana_create_stake", { account: DEMO.dotStaking, amount: "5", unit: "DOT", validator });
    expect(dry.structured.status).toBe("failed");
    expect(dry.structured.error).toMatch(/^account: creating a Solana stake needs a Solana account/);
  });

  it("solana_deactivate_stake: deactivates an activated stake; blocks a deactivated one", async () => {
    const active = await stakeWith("deactivate");
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_deactivate_stake", { account: DEMO.solTreasury, stake_uid: active.uid });
    expect(transactionOf(confirmed.structured).type).toBe("STAKE_DEACTIVATE");
    expect(confirmed.text).toMatch(/^SUBMITTED \(the dry run cw-[0-9a-f]{20}\): transaction \d+ STAKE_DEACTIVATE \w+\./);
    const inactive = await stakeWithout("deactivate");
    const blocked = await call(demo.staking.client, "solana_deactivate_stake", { account: DEMO.solTreasury, stake_uid: inactive.uid });
    expect(blockingCodes(blocked.structured)).toEqual(expect.arrayContaining(["SOLANA_STAKE_ACTION_NOT_LISTED"]));
  });

  it("solana_withdraw_stake: withdraws a deactivated stake; blocks an active one", async () => {
    const deactivated = await stakeWith("withdraw");
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_withdraw_stake", { account: DEMO.solTreasury, stake_uid: deactivated.uid });
    expect(confirmed.structured.status).toBe("submitted");
    const active = await stakeWith("deactivate");
    const blocked = await call(demo.staking.client, "solana_withdraw_stake", { account: DEMO.solTreasury, stake_uid: active.uid });
    expect(blockingCodes(blocked.structured)).toEqual(expect.arrayContaining(["SOLANA_STAKE_ACTION_NOT_LISTED", "SOLANA_WITHDRAW_NOT_DEACTIVATED"]));
  });

  it("solana_delegate_stake: re-delegates a stake being deactivated; blocks one that does not list delegate", async () => {
    const active = await stakeWith("deactivate");
    const blocked = await call(demo.staking.client, "solana_delegate_stake", { account: DEMO.solTreasury, stake_uid: active.uid, validator });
    expect(blockingCodes(blocked.structured)).toContain("SOLANA_STAKE_ACTION_NOT_LISTED");
    await dryRunAndConfirm(demo.staking.client, "solana_deactivate_stake", { account: DEMO.solTreasury, stake_uid: active.uid });
    await waitFor(async () => (await stakes()).some((stake) => stake.uid === active.uid && stake.actions.some((element) => element.endsWith("/delegate"))));
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_delegate_stake", { account: DEMO.solTreasury, stake_uid: active.uid, validator });
    expect(confirmed.structured.status).toBe("submitted");
  });

  it("solana_split_stake: splits part off; blocks a split that would leave the source below the reserve", async () => {
    const active = await stakeWith("split");
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_split_stake", {
      account: DEMO.solTreasury,
      stake_uid: active.uid,
      amount: "1",
      unit: "SOL",
    });
    expect(confirmed.structured.status).toBe("submitted");
    const whole = active.blockchain_state.total_balance.toString();
    const blocked = await call(demo.staking.client, "solana_split_stake", { account: DEMO.solTreasury, stake_uid: active.uid, amount: whole, unit: "lamport" });
    expect(blockingCodes(blocked.structured)).toContain("SOLANA_SPLIT_SOURCE_BELOW_RESERVE");
  });

  it("solana_split_deactivate_stake: splits and deactivates part; blocks a new stake below the reserve", async () => {
    const active = await stakeWith("split_deactivate");
    const { confirmed } = await dryRunAndConfirm(demo.staking.client, "solana_split_deactivate_stake", {
      account: DEMO.solTreasury,
      stake_uid: active.uid,
      amount: "2",
      unit: "SOL",
    });
    expect(confirmed.structured.status).toBe("submitted");
    const blocked = await call(demo.staking.client, "solana_split_deactivate_stake", {
      account: DEMO.solTreasury,
      stake_uid: active.uid,
      amount: "1000",
      unit: "lamport",
    });
    expect(blockingCodes(blocked.structured)).toContain("SOLANA_SPLIT_NEW_STAKE_BELOW_RESERVE");
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("polkadot staking", () => {
  const polkadot = (tool: string, args: Record<string, unknown> = {}) => call(demo.treasury.client, tool, { account: DEMO.dotStaking, ...args });

  it("polkadot_bond_extra: the fixed values of the spec; blocks above the available balance", async () => {
    const { dry, confirmed } = await dryRunAndConfirm(demo.treasury.client, "polkadot_bond_extra", { account: DEMO.dotStaking, amount: "10", unit: "DOT" });
    expect(requestOf(dry).body).toMatchObject({
      amount: { value: "100000000000", unit: "planck" },
      max_fees: { value: "0", unit: "planck" },
      recipient: "",
      speed: "CUSTOM",
      coin_fields: { type: "BONDEXTRA" },
    });
    expect(confirmed.structured.status).toBe("submitted");
    expect(blockingCodes((await polkadot("polkadot_bond_extra", { amount: "1000000", unit: "DOT" })).structured)).toContain(
      "POLKADOT_BONDEXTRA_EXCEEDS_AVAILABLE",
    );
  });

  it("polkadot_unbond: unbonds; blocks above the bonded balance", async () => {
    const { confirmed } = await dryRunAndConfirm(demo.treasury.client, "polkadot_unbond", { account: DEMO.dotStaking, amount: "5", unit: "DOT" });
    expect(transactionOf(confirmed.structured).type).toBe("UNBOND");
    expect(blockingCodes((await polkadot("polkadot_unbond", { amount: "3201", unit: "DOT" })).structured)).toContain("POLKADOT_UNBOND_EXCEEDS_BONDED");
  });

  it("polkadot_rebond: rebonds; blocks above unbonding plus unbonded", async () => {
    const { confirmed } = await dryRunAndConfirm(demo.treasury.client, "polkadot_rebond", { account: DEMO.dotStaking, amount: "50", unit: "DOT" });
    expect(confirmed.structured.status).toBe("submitted");
    expect(blockingCodes((await polkadot("polkadot_rebond", { amount: "301", unit: "DOT" })).structured)).toContain("POLKADOT_REBOND_EXCEEDS_UNBONDING");
  });

  it("polkadot_withdraw_unbonded: withdraws with a null amount; blocks when nothing is unbonded", async () => {
    const { dry, confirmed } = await dryRunAndConfirm(demo.treasury.client, "polkadot_withdraw_unbonded", { account: DEMO.dotStaking });
    expect((requestOf(dry).body as { amount: unknown }).amount).toEqual({ value: null, unit: "planck" });
    expect(confirmed.structured.status).toBe("submitted");
    const vault = await call(demo.treasury.client, "polkadot_withdraw_unbonded", { account: DEMO.dotVault });
    expect(blockingCodes(vault.structured)).toContain("POLKADOT_WITHDRAW_NOTHING_UNBONDED");
  });

  it("polkadot_set_payee: changes the destination; blocks the current one", async () => {
    const account = await accountNamed(demo.emulator, DEMO.dotStaking);
    const current = (account.coin_fields as { staking: { rewards_destination: string } }).staking.rewards_destination;
    const other = current === "Staked" ? "Stash" : "Staked";
    const { dry, confirmed } = await dryRunAndConfirm(demo.treasury.client, "polkadot_set_payee", { account: DEMO.dotStaking, payee: other });
    expect((requestOf(dry).body as { coin_fields: unknown }).coin_fields).toEqual({ type: "SETPAYEE", payee: other });
    expect(confirmed.structured.status).toBe("submitted");
    const fresh = await connectHarness(demo.emulator);
    const unchanged = await call(fresh.client, "polkadot_set_payee", {
      account: DEMO.dotVault,
      payee: ((await accountNamed(demo.emulator, DEMO.dotVault)).coin_fields as { staking: { rewards_destination: string } }).staking.rewards_destination,
    });
    await fresh.close();
    expect(blockingCodes(unchanged.structured)).toContain("POLKADOT_PAYEE_UNCHANGED");
  });
});

describe("ethereum staking", () => {
  let deposit: string;
  beforeEach(async () => {
    deposit = await ownDepositCallData(demo.emulator);
  });
  const stake = (overrides: Record<string, unknown> = {}) => ({
    account: DEMO.ethStaking,
    contract: DEMO.kilnContract,
    contract_data: deposit,
    amount: "32",
    unit: "ETH",
    ...overrides,
  });

  it("ethereum_stake: calls the provider's contract under the smart-contract rule", async () => {
    const { dry, confirmed } = await dryRunAndConfirm(demo.staking.client, "ethereum_stake", stake());
    const body = requestOf(dry).body;
    expect(body).toMatchObject({
      recipient: DEMO.kilnContract,
      amount: { value: "32000000000000000000", unit: "wei" },
      coin_fields: { contract_interaction: { contract_data: deposit } },
    });
    expect(confirmed.structured.status).toBe("submitted");
    expect(transactionOf(confirmed.structured).type).toBe("EXECUTE_CONTRACT");
  });

  it("ethereum_stake: blocks a contract the account's whitelist does not hold", async () => {
    const dry = await call(demo.staking.client, "ethereum_stake", stake({ contract: DEMO.usdcContract }));
    expect(blockingCodes(dry.structured)).toContain("ETHEREUM_STAKE_RECIPIENT_NOT_WHITELISTED");
  });

  it("ethereum_stake: blocks an account holding less than 32 ETH", async () => {
    const dry = await call(demo.treasury.client, "ethereum_stake", stake({ account: DEMO.ethOps, contract: DEMO.usdcContract, amount: "1" }));
    expect(blockingCodes(dry.structured)).toContain("ETHEREUM_STAKE_BALANCE_BELOW_MINIMUM");
  });
});

describe("approvals", () => {
  it("approve_transaction: this operator's approval completes the quorum", async () => {
    const account = await accountNamed(demo.emulator, DEMO.solTreasury);
    const bots = [
      { username: DEMO.treasuryBot, is_api: true },
      { username: DEMO.stakingBot, is_api: true },
    ];
    await control(demo.emulator, "PUT", `/accounts/${account.id}/governance`, {
      ...account.governance_rules,
      transaction: { creators: [bots[0]], steps: [{ quorum: 2, approvers: bots }] },
    });
    const recipient = (await accountNamed(demo.emulator, DEMO.solCold)).address;
    const { confirmed: created } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", {
      account: DEMO.solTreasury,
      recipient,
      amount: "1",
      unit: "SOL",
    });
    const pending = transactionOf(created.structured);
    expect(pending.status).toBe("PENDING_APPROVAL");
    const { dry, confirmed } = await dryRunAndConfirm(demo.staking.client, "approve_transaction", { transaction_id: pending.id });
    expect((dry.structured.governance as { outcome: string }).outcome).toBe("approved_at_once");
    expect(requestOf(dry)).toMatchObject({ path: `/transactions/${pending.id}/approve`, body: { amount: { value: "1000000000" } } });
    expect(confirmed.structured.status).toBe("submitted");
    expect(transactionOf(confirmed.structured).id).toBe(pending.id);
  });

  it("approve_transaction: blocks an operator who already approved, and a transaction that is not pending", async () => {
    const pending = (await directClient(demo.emulator).searchTransactions({ status: "PENDING_APPROVAL" })).edges[0]?.node;
    if (!pending) throw new Error("the demo workspace has no pending transaction");
    const mine = await call(demo.treasury.client, "approve_transaction", { transaction_id: pending.id });
    expect(blockingCodes(mine.structured)).toEqual(expect.arrayContaining([expect.stringMatching(/^APPROVE_(ALREADY_APPROVED|NOT_AN_APPROVER)$/)]));
    const done = await call(demo.treasury.client, "approve_transaction", { transaction_id: 1 });
    expect(blockingCodes(done.structured)).toContain("APPROVE_NOT_PENDING");
  });
});

describe("operators", () => {
  it("create_operator then register_operator with the administrators' invitation", async () => {
    const created = await call(demo.treasury.client, "create_operator", { name: "new-bot" });
    expect(created.isError).toBe(false);
    const deviceId = (created.structured.api_user as { device_id: string }).device_id;
    expect(deviceId).toMatch(/^[0-9a-fA-F]+$/);
    const invitation = (await control(demo.emulator, "POST", "/invitations", { username: "new-bot", device_id: deviceId })) as { uuid: string };
    const registered = await call(demo.treasury.client, "register_operator", { name: "new-bot", uuid: invitation.uuid });
    const admin = (await control(demo.emulator, "GET", "/admin-rule")) as { quorum: number };
    expect(registered.structured).toMatchObject({
      success: true,
      user_status: "PENDING_APPROVAL",
      request: { id: expect.any(Number), rule: "admin", quorum: admin.quorum },
    });
    const audit = readFileSync(demo.treasury.auditPath, "utf8");
    const records = audit
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; tool?: string });
    // The log's first record is its seal's (first_seal); then the two calls.
    expect(records.filter((record) => record.event !== "sealed").map((record) => record.tool)).toEqual(["create_operator", "register_operator"]);
    expect(audit).not.toContain(invitation.uuid);
  });

  it("create_operator, register_operator and sync_account whose audit record cannot be written say what they did, with a warning", async () => {
    rmSync(demo.treasury.auditPath, { force: true });
    mkdirSync(demo.treasury.auditPath);
    const unaudited = {
      warning: expect.stringMatching(
        /^the audit log could not be written \(.+\): this call is missing from it, though the service answered it as this answer says$/,
      ),
    };
    const created = await call(demo.treasury.client, "create_operator", { name: "unaudited-bot" });
    expect(created.isError, created.text).toBe(false);
    expect(created.structured).toMatchObject(unaudited);
    expect(created.text).toMatch(/^Operator .+ created, device_id [0-9a-fA-F]+\. .*\nWARNING: the audit log could not be written/s);
    const deviceId = (created.structured.api_user as { device_id: string }).device_id;
    const invitation = (await control(demo.emulator, "POST", "/invitations", { username: "unaudited-bot", device_id: deviceId })) as { uuid: string };
    const registered = await call(demo.treasury.client, "register_operator", { name: "unaudited-bot", uuid: invitation.uuid });
    expect(registered.isError, registered.text).toBe(false);
    expect(registered.structured).toMatchObject({ success: true, user_status: "PENDING_APPROVAL", ...unaudited });
    expect(registered.text).toContain("\nWARNING: the audit log could not be written");
    const synced = await call(demo.treasury.client, "sync_account", { account: DEMO.solTreasury });
    expect(synced.isError, synced.text).toBe(false);
    expect(synced.structured).toMatchObject({ success: true, ...unaudited });
    expect(synced.text).toMatch(/^account \d+: history refresh requested\nWARNING: the audit log could not be written/);
  });

  it("create_operator refuses a name with a space, naming the field", async () => {
    const created = await call(demo.treasury.client, "create_operator", { name: "new bot" });
    expect(created.isError).toBe(true);
    expect(created.text).toMatch(/name/);
  });
});
