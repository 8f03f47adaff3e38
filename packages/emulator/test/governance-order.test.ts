import { ErrorBody, Transaction } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIGMENT_DEPOSIT_CONTRACT, KILN_DEPOSIT_CONTRACT, externalSolana } from "../src/seed/demo-addresses.js";
import { expectStatus, governance, operatorsRule } from "./support/harness.js";
import { obj, type HttpAnswer } from "./support/http-client.js";
import { DOT, ETH, OP_A, OP_B, SOL, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

const CALL_DATA = `0x22895118${"00".repeat(32)}`;

/** 403 NotInGovernanceRule, and nothing in the message about the account's funds. */
function expectNotInRule(answer: HttpAnswer, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(403);
  const error = decode(ErrorBody, answer);
  expect(error.name, what).toBe("NotInGovernanceRule");
  expect(error.message, what).not.toMatch(/balance|exceeds|minimum|fee/);
}

describe("governance before business rules (Authentication 4): an operator the rule does not list gets 403 before any balance check", () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await standardWorkspace({ epochSeconds: 100 });
    // op-a alone in every rule of these accounts; op-b is known and ACTIVE, but listed nowhere there.
    expectStatus(await w.control.put(`/accounts/${w.ids["dot-auto"]}/governance`, governance(operatorsRule(OP_A))), 200);
    expectStatus(
      await w.control.put(
        `/accounts/${w.ids["eth-small"]}/governance`,
        governance(operatorsRule(OP_A), { smart_contract: { ...operatorsRule(OP_A), whitelist: [KILN_DEPOSIT_CONTRACT] } }),
      ),
      200,
    );
  });
  afterAll(async () => {
    await w.close();
  });

  it("a send: above the available balance, of 0, or with max_fees under the fee, is 403 for an operator not in the transaction rule", async () => {
    const send = (amount: string, maxFees = "7500") => ({
      account_name: "sol-human",
      amount,
      max_fees: maxFees,
      recipient: externalSolana("gov"),
      speed: "NORMAL",
    });
    expectNotInRule(await w.api(OP_B).post("/transactions", send((1000n * SOL).toString())), "above available");
    expectNotInRule(await w.api(OP_B).post("/transactions", send("0")), "amount 0");
    expectNotInRule(await w.api(OP_B).post("/transactions", send("5", "1")), "max_fees under the fee");
    expect(decode(ErrorBody, await w.api(OP_A).post("/transactions", send((1000n * SOL).toString()))).name).toBe("InsufficientFunds");
  });

  it("a Polkadot operation with wrong fixed values or a zero amount is 403 for an operator not in the transaction rule", async () => {
    const bond = (amount: string, speed = "CUSTOM") => ({
      account_name: "dot-auto",
      amount,
      max_fees: "0",
      recipient: "",
      speed,
      coin_fields: { type: "BONDEXTRA" },
    });
    expectNotInRule(await w.api(OP_B).post("/transactions", bond((5000n * DOT).toString(), "NORMAL")), "speed NORMAL");
    expectNotInRule(await w.api(OP_B).post("/transactions", bond("0")), "amount 0");
    expect((await w.api(OP_A).post("/transactions", bond("0"))).status).toBe(400);
  });

  it(
    "an Ethereum staking deposit from an account under 32 ETH, or to a contract off the " + "whitelist, is 403 for an operator not in the smart-contract rule",
    async () => {
      const deposit = (recipient: string, amount: bigint) => ({
        account_name: "eth-small",
        amount: amount.toString(),
        max_fees: "3000000000000000",
        recipient,
        speed: "NORMAL",
        coin_fields: { contract_interaction: { contract_data: CALL_DATA } },
      });
      expectNotInRule(await w.api(OP_B).post("/transactions", deposit(KILN_DEPOSIT_CONTRACT, 32n * ETH)), "balance under 32 ETH");
      expectNotInRule(await w.api(OP_B).post("/transactions", deposit(KILN_DEPOSIT_CONTRACT, 1n)), "amount not a multiple of 32 ETH");
      expectNotInRule(await w.api(OP_B).post("/transactions", deposit(FIGMENT_DEPOSIT_CONTRACT, 32n * ETH)), "contract off the whitelist");
      expect(decode(ErrorBody, await w.api(OP_A).post("/transactions", deposit(KILN_DEPOSIT_CONTRACT, 32n * ETH))).name).toBe("EthereumStakingRefused");
    },
  );

  it(
    "guided Solana staking: a stake above the available balance, or an action the stake " + "does not allow, is 403 for an operator not in the staking rule",
    async () => {
      const stakes = `/solana/accounts/${w.ids["sol-auto"]}/stakes`;
      const validator = externalSolana("gov-validator");
      expectNotInRule(await w.api(OP_B).post(stakes, { amount: (1000n * SOL).toString(), validator }), "stake above available");
      expectNotInRule(await w.api(OP_B).post(stakes, { amount: 0, validator }), "stake of 0");
      const created = decode(Transaction, expectStatus(await w.api(OP_A).post(stakes, { amount: (2n * SOL).toString(), validator }), 200));
      const uid = ((await w.api(OP_A).get(stakes)).body as { uid: string; blockchain_state: { pub_key: string } }[]).find(
        (item) => item.blockchain_state.pub_key === (created.coin_fields as { tx_parameters: { stake_account: string } }).tx_parameters.stake_account,
      )?.uid;
      expectNotInRule(await w.api(OP_B).post(`${stakes}/${uid}/actions/withdraw`), "withdraw of an activating stake");
      expect(obj(await w.api(OP_A).post(`${stakes}/${uid}/actions/withdraw`)).name).toBe("ActionNotAllowed");
    },
  );
});
