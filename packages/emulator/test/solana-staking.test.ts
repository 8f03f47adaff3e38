import { ErrorBody, SOLANA_EPOCH_NONE, SolanaStake, SolanaStakeList, Transaction, stakeAllows } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { advance, expectStatus } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { OP_A, OP_B, SOL, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

const VALIDATOR = externalSolana("validator-1");
const OTHER_VALIDATOR = externalSolana("validator-2");
const FEE = 5000n;

describe("Solana guided staking (spec: Solana stake transitions, usage rule 1, errors)", () => {
  let w: Workspace;
  let stakesPath: string;
  beforeEach(async () => {
    w = await standardWorkspace({ epochSeconds: 100 });
    stakesPath = `/solana/accounts/${w.ids["sol-auto"]}/stakes`;
  });
  afterEach(async () => {
    await w.close();
  });

  const liquid = async () => BigInt(obj(await w.api(OP_A).get(`/accounts/${w.ids["sol-auto"]}`)).balance as string);
  const stakes = async () => decode(SolanaStakeList, expectStatus(await w.api(OP_A).get(stakesPath), 200));
  const stake = async (uid: string) => decode(SolanaStake, expectStatus(await w.api(OP_A).get(`${stakesPath}/${uid}`), 200));

  async function createStake(amount: bigint): Promise<SolanaStake> {
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post(stakesPath, { amount: Number(amount), validator: VALIDATOR }), 200));
    expect(created.type).toBe("STAKE_CREATE_DELEGATE");
    const list = await stakes();
    const made = list.find(
      (item) => item.blockchain_state.pub_key === (created.coin_fields as { tx_parameters: { stake_account: string } }).tx_parameters.stake_account,
    );
    if (!made) throw new Error("the stake did not appear after broadcast");
    return made;
  }

  function actionPath(item: SolanaStake, action: string): string {
    const path = item.actions.find((element) => element.endsWith(`/${action}`));
    if (!path) throw new Error(`stake does not list ${action}: ${item.actions.join(", ")}`);
    return path;
  }

  async function act(item: SolanaStake, action: string, body?: unknown) {
    return w.api(OP_A).post(`${stakesPath}/${item.uid}/actions/${action}`, body);
  }

  it("create and delegate: STAKE_CREATE_DELEGATE; activating until the next epoch, then activated; rewards each epoch into total_reward", async () => {
    const before = await liquid();
    const made = await createStake(10n * SOL);
    expect(made.blockchain_state.status).toBe("activating");
    expect(made.blockchain_state.total_balance).toBe(10n * SOL);
    expect(made.total_reward).toBe(0n);
    expect(await liquid()).toBe(before - 10n * SOL - FEE);
    await advance(w, { epochs: 1 });
    const activated = await stake(made.uid);
    expect(activated.blockchain_state.status).toBe("activated");
    expect(activated.blockchain_state.active_balance).toBe(10n * SOL - activated.blockchain_state.rent_exempt_reserve);
    expect(activated.total_reward).toBe(0n);
    await advance(w, { epochs: 1 });
    const rewarded = await stake(made.uid);
    expect(rewarded.total_reward).toBeGreaterThan(0n);
    expect(rewarded.blockchain_state.total_balance).toBe(10n * SOL + rewarded.total_reward);
    await advance(w, { epochs: 1 });
    expect((await stake(made.uid)).total_reward).toBeGreaterThan(rewarded.total_reward);
  });

  it("activated -> deactivating (STAKE_DEACTIVATE), then deactivated at the next epoch after its last rewards", async () => {
    const made = await createStake(10n * SOL);
    await advance(w, { epochs: 1 });
    const activated = await stake(made.uid);
    expect(stakeAllows(activated, "deactivate")).toBe(true);
    const tx = decode(Transaction, expectStatus(await w.api(OP_A).post(actionPath(activated, "deactivate")), 200));
    expect(tx.type).toBe("STAKE_DEACTIVATE");
    expect(tx.coin_fields).toMatchObject({ type: "Solana", tx_parameters: { stake_account: activated.blockchain_state.pub_key } });
    const deactivating = await stake(made.uid);
    expect(deactivating.blockchain_state.status).toBe("deactivating");
    expect(deactivating.actions.map((path) => path.split("/").pop())).toEqual(["delegate"]);
    await advance(w, { epochs: 1 });
    const deactivated = await stake(made.uid);
    expect(deactivated.blockchain_state.status).toBe("deactivated");
    expect(deactivated.total_reward).toBeGreaterThan(0n);
    expect(deactivated.blockchain_state.active_balance).toBe(0n);
    expect(deactivated.actions.map((path) => path.split("/").pop())).toEqual(["withdraw"]);
  });

  it(
    "deactivation_epoch is Solana's u64::MAX (18446744073709551615, an exact JSON integer) until " +
      "deactivated, then the epoch of the deactivation; deactivation_date null until then",
    async () => {
      const made = await createStake(5n * SOL);
      const raw = await w.api(OP_A).get(`${stakesPath}/${made.uid}`);
      expect(raw.text).toContain('"deactivation_epoch":18446744073709551615,');
      expect(raw.text).toContain('"deactivation_date":null');
      expect(made.blockchain_state.deactivation_epoch).toBe(SOLANA_EPOCH_NONE);
      expect((await w.api(OP_A).get(stakesPath)).text).toContain('"deactivation_epoch":18446744073709551615,');
      await advance(w, { epochs: 1 });
      const activated = await stake(made.uid);
      expect(activated.blockchain_state).toMatchObject({ status: "activated", deactivation_epoch: SOLANA_EPOCH_NONE, deactivation_date: null });
      expectStatus(await act(activated, "deactivate"), 200);
      const epoch = BigInt(obj(await w.control.get("/clock")).epoch as number);
      const deactivating = await stake(made.uid);
      expect(deactivating.blockchain_state.deactivation_epoch).toBe(epoch);
      expect(deactivating.blockchain_state.deactivation_date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect((await w.api(OP_A).get(`${stakesPath}/${made.uid}`)).text).toContain(`"deactivation_epoch":${epoch},`);
      expectStatus(await act(deactivating, "delegate", { validator: OTHER_VALIDATOR }), 200);
      expect((await stake(made.uid)).blockchain_state).toMatchObject({ status: "activating", deactivation_epoch: SOLANA_EPOCH_NONE, deactivation_date: null });
    },
  );

  it("activating -> deactivating is accepted too", async () => {
    const made = await createStake(5n * SOL);
    expect(made.blockchain_state.status).toBe("activating");
    expectStatus(await act(made, "deactivate"), 200);
    expect((await stake(made.uid)).blockchain_state.status).toBe("deactivating");
  });

  it(
    "a stake deactivated in the epoch it was activating in never takes effect: no active balance, no " +
      "reward, deactivated at the next epoch, withdraw gives back exactly the stake",
    async () => {
      const made = await createStake(5n * SOL);
      expectStatus(await act(made, "deactivate"), 200);
      const deactivating = await stake(made.uid);
      expect(deactivating.blockchain_state).toMatchObject({ status: "deactivating", active_balance: 0n, inactive_balance: 5n * SOL });
      expect(deactivating.blockchain_state.deactivation_epoch).toBe(deactivating.blockchain_state.activation_epoch);
      await advance(w, { epochs: 1 });
      const deactivated = await stake(made.uid);
      expect(deactivated.blockchain_state.status).toBe("deactivated");
      expect(deactivated.total_reward).toBe(0n);
      expect(deactivated.blockchain_state.total_balance).toBe(5n * SOL);
      const before = await liquid();
      expectStatus(await act(deactivated, "withdraw"), 200);
      expect(await liquid()).toBe(before + 5n * SOL - FEE);
    },
  );

  it("create, deactivate, delegate and deactivate again in one epoch: still never in effect, nothing earned", async () => {
    const made = await createStake(5n * SOL);
    expectStatus(await act(made, "deactivate"), 200);
    expectStatus(await act(await stake(made.uid), "delegate", { validator: OTHER_VALIDATOR }), 200);
    expectStatus(await act(await stake(made.uid), "deactivate"), 200);
    expect((await stake(made.uid)).blockchain_state.active_balance).toBe(0n);
    await advance(w, { epochs: 1 });
    const deactivated = await stake(made.uid);
    expect(deactivated.blockchain_state.status).toBe("deactivated");
    expect(deactivated.total_reward).toBe(0n);
    expect(deactivated.blockchain_state.total_balance).toBe(5n * SOL);
  });

  it("split_deactivate of an activating stake: the part split off is never in effect and earns nothing", async () => {
    const made = await createStake(10n * SOL);
    expectStatus(await act(made, "split_deactivate", { amount: (4n * SOL).toString() }), 200);
    const parted = (await stakes()).find((item) => item.uid !== made.uid);
    if (!parted) throw new Error("the split stake did not appear");
    expect(parted.blockchain_state).toMatchObject({ status: "deactivating", active_balance: 0n });
    await advance(w, { epochs: 2 });
    const after = await stake(parted.uid);
    expect(after.blockchain_state.status).toBe("deactivated");
    expect(after.total_reward).toBe(0n);
    expect(after.blockchain_state.total_balance).toBe(4n * SOL);
    expect((await stake(made.uid)).total_reward).toBeGreaterThan(0n);
  });

  it("deactivate on a stake that is not activating or activated is not accepted (400)", async () => {
    const made = await createStake(5n * SOL);
    await act(made, "deactivate");
    const again = await act(await stake(made.uid), "deactivate");
    expect(again.status).toBe(400);
    expect(decode(ErrorBody, again).message).toMatch(/deactivate is not allowed/);
    await advance(w, { epochs: 1 });
    expect((await act(await stake(made.uid), "deactivate")).status).toBe(400);
  });

  it("deactivated -> withdraw: a STAKE_WITHDRAW transaction; the funds return to the account and the stake leaves the open positions", async () => {
    const made = await createStake(5n * SOL);
    await act(made, "deactivate");
    await advance(w, { epochs: 1 });
    const deactivated = await stake(made.uid);
    const before = await liquid();
    const tx = decode(Transaction, expectStatus(await act(deactivated, "withdraw"), 200));
    expect(tx.type).toBe("STAKE_WITHDRAW");
    expect(await liquid()).toBe(before + deactivated.blockchain_state.total_balance - FEE);
    expect((await stakes()).some((item) => item.uid === made.uid)).toBe(false);
    expect((await stake(made.uid)).status).toBe("WITHDRAWN");
  });

  it("withdraw is refused while the stake is not deactivated", async () => {
    const made = await createStake(5n * SOL);
    const answer = await act(made, "withdraw");
    expect(answer.status).toBe(400);
  });

  it("deactivating -> delegate within the epoch of the deactivation while actions lists it: the whole total_balance goes to the validator", async () => {
    const made = await createStake(5n * SOL);
    await advance(w, { epochs: 1 });
    await act(await stake(made.uid), "deactivate");
    const deactivating = await stake(made.uid);
    expect(stakeAllows(deactivating, "delegate")).toBe(true);
    const tx = decode(Transaction, expectStatus(await act(deactivating, "delegate", { validator: OTHER_VALIDATOR }), 200));
    expect(tx.type).toBe("STAKE_DELEGATE");
    expect(tx.amount).toBe(deactivating.blockchain_state.total_balance);
    const delegated = await stake(made.uid);
    expect(delegated.blockchain_state.validator_address).toBe(OTHER_VALIDATOR);
    expect(delegated.blockchain_state.status).toBe("activating");
    expect(delegated.blockchain_state.total_balance).toBe(deactivating.blockchain_state.total_balance);
  });

  it("delegate on a stake whose actions does not list delegate answers 400", async () => {
    const made = await createStake(5n * SOL);
    expect(stakeAllows(made, "delegate")).toBe(false);
    const answer = await act(made, "delegate", { validator: OTHER_VALIDATOR });
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer)).toMatchObject({ name: "ActionNotAllowed", status_code: 400 });
  });

  it("split creates a new stake with the amount (STAKE_SPLIT); split_deactivate creates one that is deactivating", async () => {
    const made = await createStake(10n * SOL);
    await advance(w, { epochs: 1 });
    const source = await stake(made.uid);
    const split = decode(Transaction, expectStatus(await act(source, "split", { amount: (3n * SOL).toString() }), 200));
    expect(split.type).toBe("STAKE_SPLIT");
    const afterSplit = await stakes();
    expect(afterSplit).toHaveLength(2);
    expect((await stake(made.uid)).blockchain_state.total_balance).toBe(source.blockchain_state.total_balance - 3n * SOL);
    const splitDeactivate = decode(Transaction, expectStatus(await act(await stake(made.uid), "split_deactivate", { amount: (2n * SOL).toString() }), 200));
    expect(splitDeactivate.type).toBe("STAKE_SPLIT_DEACTIVATE");
    const all = await stakes();
    expect(all).toHaveLength(3);
    const parted = all.find((item) => item.uid !== made.uid && item.blockchain_state.total_balance === 2n * SOL);
    expect(parted?.blockchain_state.status).toBe("deactivating");
    const total = all.reduce((sum, item) => sum + item.blockchain_state.total_balance, 0n);
    expect(total).toBe(source.blockchain_state.total_balance);
  });

  it("a split leaving the source under its rent-exempt reserve is refused, naming the rule", async () => {
    const made = await createStake(10n * SOL);
    const answer = await act(made, "split", { amount: (10n * SOL).toString() });
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer).message).toMatch(/rent_exempt_reserve/);
  });

  it("a stake or a split of amount 0 is a validation error naming amount", async () => {
    const create = await w.api(OP_A).post(stakesPath, { amount: 0, validator: VALIDATOR });
    expect(create.status).toBe(400);
    expect(decode(ErrorBody, create)).toMatchObject({ name: "ValidationError", message: "amount: must be greater than 0 base units for a new stake, got 0" });
    const made = await createStake(10n * SOL);
    for (const action of ["split", "split_deactivate"]) {
      const answer = await act(made, action, { amount: 0 });
      expect(answer.status).toBe(400);
      expect(decode(ErrorBody, answer)).toMatchObject({ name: "ValidationError", message: `amount: must be greater than 0 base units for a ${action}, got 0` });
    }
  });

  it("usage rule 1: guided staking needs the staking rule active on the account", async () => {
    const answer = await w.api(OP_A).post(`/solana/accounts/${w.ids["sol-nostaking"]}/stakes`, { amount: Number(SOL), validator: VALIDATOR });
    expect(answer.status).toBe(403);
    expect(decode(ErrorBody, answer).name).toBe("StakingRuleNotActive");
  });

  it("usage rule 1: the operator must be in the staking rule as well as the transaction rule", async () => {
    const answer = await w.api(OP_B).post(stakesPath, { amount: Number(SOL), validator: VALIDATOR });
    expect(answer.status).toBe(403);
    expect(decode(ErrorBody, answer)).toMatchObject({ name: "NotInGovernanceRule" });
    expect(decode(ErrorBody, answer).message).toMatch(/staking rule/);
  });

  it("the stake list is a bare array of open positions", async () => {
    await createStake(2n * SOL);
    const answer = await w.api(OP_A).get(stakesPath);
    expect(Array.isArray(answer.body)).toBe(true);
  });
});
