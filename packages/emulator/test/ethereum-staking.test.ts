import { ErrorBody, EthereumStakePage, Transaction } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIGMENT_DEPOSIT_CONTRACT, KILN_DEPOSIT_CONTRACT, USDC_CONTRACT, externalEthereum } from "../src/seed/demo-addresses.js";
import { advance, expectStatus, governance, operatorsRule } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { ETH, OP_A, OP_B, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

const CALL_DATA = `0x22895118${"00".repeat(32)}`;
const MAX_FEES = "3000000000000000";

function stake(account: string, amount: bigint, recipient = KILN_DEPOSIT_CONTRACT) {
  return {
    account_name: account,
    amount: amount.toString(),
    max_fees: MAX_FEES,
    recipient,
    speed: "NORMAL",
    coin_fields: { contract_interaction: { contract_data: CALL_DATA } },
  };
}

describe("Ethereum staking (spec: usage rule 3)", () => {
  let w: Workspace;
  beforeEach(async () => {
    w = await standardWorkspace();
  });
  afterEach(async () => {
    await w.close();
  });

  it("a deposit to a whitelisted provider contract is an EXECUTE_CONTRACT under the smart-contract rule and opens a position", async () => {
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", stake("eth-auto", 32n * ETH)), 200));
    expect(created.type).toBe("EXECUTE_CONTRACT");
    const done = decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`));
    expect(done.status).toBe("SUBMITTED");
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const page = decode(EthereumStakePage, expectStatus(await w.api(OP_A).get(`/ethereum/accounts/${w.ids["eth-auto"]}/stakes`), 200));
    expect(page.page_info.count).toBe(1);
    const position = page.edges[0]?.node;
    expect(position).toMatchObject({ amount: 32n * ETH, status: "PENDING", provider: "Kiln", transaction_id: created.id });
    await advance(w, { seconds: 86_400 * 30 });
    const later = decode(EthereumStakePage, await w.api(OP_A).get(`/ethereum/accounts/${w.ids["eth-auto"]}/stakes`)).edges[0]?.node;
    expect(later?.status).toBe("ACTIVE");
    expect(later?.total_reward).toBeGreaterThan(0n);
    const account = obj(await w.api(OP_A).get(`/accounts/${w.ids["eth-auto"]}`));
    expect(BigInt(account.balance as string)).toBe(8n * ETH - (done.fees ?? 0n));
  });

  it("is refused when the account holds under 32 ETH", async () => {
    const answer = await w.api(OP_A).post("/transactions", stake("eth-small", 32n * ETH));
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer).message).toMatch(/below the Ethereum staking minimum of 32 ETH/);
  });

  it("a deposit must be a positive whole multiple of 32 ETH (32 ETH per validator): anything else is 400 naming amount", async () => {
    await w.control.post(`/accounts/${w.ids["eth-auto"]}/deposit`, { amount: (60n * ETH).toString() });
    for (const amount of [0n, 1n, 5n * ETH, 31n * ETH, 33n * ETH, 48n * ETH, 32n * ETH + 1n]) {
      const answer = await w.api(OP_A).post("/transactions", stake("eth-auto", amount));
      expect(answer.status, amount.toString()).toBe(400);
      const error = decode(ErrorBody, answer);
      expect(error.name).toBe("ValidationError");
      expect(error.message).toMatch(/^amount: a staking deposit \(Kiln\) must be a positive whole multiple of 32 ETH \(32000000000000000000 wei\)/);
    }
    const two = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", stake("eth-auto", 64n * ETH)), 200));
    expect(decode(Transaction, await w.api(OP_A).get(`/transactions/${two.id}`)).status).toBe("SUBMITTED");
    const position = decode(EthereumStakePage, await w.api(OP_A).get(`/ethereum/accounts/${w.ids["eth-auto"]}/stakes`)).edges[0]?.node;
    expect(position?.amount).toBe(64n * ETH);
  });

  it("an empty whitelist restricts nothing: any contract may be called, a provider deposit too; governance still applies", async () => {
    const open = governance(operatorsRule(OP_A, OP_B), { smart_contract: { ...operatorsRule(OP_A), whitelist: [] } });
    expectStatus(await w.control.put(`/accounts/${w.ids["eth-auto"]}/governance`, open), 200);
    const call = {
      account_name: "eth-auto",
      amount: "0",
      max_fees: MAX_FEES,
      recipient: USDC_CONTRACT,
      speed: "NORMAL",
      coin_fields: { contract_interaction: { contract_data: `0xa9059cbb${"00".repeat(64)}` } },
    };
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", call), 200));
    expect(created.type).toBe("EXECUTE_CONTRACT");
    expectStatus(await w.api(OP_A).post("/transactions", stake("eth-auto", 32n * ETH, FIGMENT_DEPOSIT_CONTRACT)), 200);
    const outsider = await w.api(OP_B).post("/transactions", call);
    expect(outsider.status).toBe(403);
    expect(decode(ErrorBody, outsider).name).toBe("NotInGovernanceRule");
  });

  it("a contract call takes the optional ABI inputs, the ABI as its JSON text or as the array itself", async () => {
    const open = governance(operatorsRule(OP_A, OP_B), { smart_contract: { ...operatorsRule(OP_A), whitelist: [] } });
    expectStatus(await w.control.put(`/accounts/${w.ids["eth-auto"]}/governance`, open), 200);
    const entries = [
      {
        type: "function",
        name: "transfer",
        inputs: [
          { name: "to", type: "address" },
          { name: "value", type: "uint256" },
        ],
      },
    ];
    const call = (abi: unknown) => ({
      account_name: "eth-auto",
      amount: "0",
      max_fees: MAX_FEES,
      recipient: USDC_CONTRACT,
      speed: "NORMAL",
      coin_fields: {
        contract_interaction: {
          contract_data: `0xa9059cbb${"00".repeat(64)}`,
          abi,
          function_name: "transfer",
          arguments: [
            { name: "to", type: "address", value: externalEthereum("abi-to") },
            { name: "value", type: "uint256", value: "0" },
          ],
        },
      },
    });
    for (const abi of [entries, JSON.stringify(entries)]) {
      const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", call(abi)), 200));
      expect(created.type).toBe("EXECUTE_CONTRACT");
    }
    const wrong = await w.api(OP_A).post("/transactions", call(42));
    expect(wrong.status).toBe(400);
    expect(decode(ErrorBody, wrong).message).toContain("coin_fields.contract_interaction.abi: must be the contract ABI");
  });

  it("is refused (403) when the contract is not on the smart-contract rule's whitelist", async () => {
    const answer = await w.api(OP_A).post("/transactions", stake("eth-auto", 32n * ETH, FIGMENT_DEPOSIT_CONTRACT));
    expect(answer.status).toBe(403);
    expect(decode(ErrorBody, answer).name).toBe("ContractNotWhitelisted");
  });

  it("needs a smart-contract rule: an account without one refuses contract calls (403)", async () => {
    await w.control.put(`/accounts/${w.ids["eth-small"]}/governance`, {
      transaction: { creators: [{ username: OP_A, is_api: true }], steps: [] },
      staking: null,
      smart_contract: null,
    });
    const answer = await w.api(OP_A).post("/transactions", stake("eth-small", 1n));
    expect(answer.status).toBe(403);
    expect(decode(ErrorBody, answer).name).toBe("NoSmartContractRule");
  });

  it("the old coin_fields.smart_contract name is refused with the rename in the message", async () => {
    const answer = await w.api(OP_A).post("/transactions", {
      ...stake("eth-auto", 32n * ETH),
      coin_fields: { smart_contract: { contract_data: CALL_DATA } },
    });
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer)).toEqual({
      name: "ValidationError",
      status_code: 400,
      message: "coin_fields.smart_contract: renamed coin_fields.contract_interaction in July 2023; send { contract_interaction: { contract_data } }",
    });
  });

  it("a plain Ethereum send pays gas fees and credits a workspace account it is sent to", async () => {
    const before = obj(await w.api(OP_A).get(`/accounts/${w.ids["eth-small"]}`));
    const created = decode(
      Transaction,
      expectStatus(
        await w.api(OP_A).post("/transactions", {
          account_name: "eth-auto",
          amount: ETH.toString(),
          max_fees: MAX_FEES,
          recipient: w.addresses["eth-small"],
          speed: "NORMAL",
        }),
        200,
      ),
    );
    expect(decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`)).status).toBe("SUBMITTED");
    const after = obj(await w.api(OP_A).get(`/accounts/${w.ids["eth-small"]}`));
    expect(BigInt(after.balance as string) - BigInt(before.balance as string)).toBe(ETH);
    const outsider = await w
      .api(OP_A)
      .post("/transactions", { account_name: "eth-auto", amount: "1", max_fees: "1000", recipient: externalEthereum("x"), speed: "FAST" });
    expect(outsider.status).toBe(400);
    expect(decode(ErrorBody, outsider).message).toMatch(/^max_fees: .* does not cover the network fee/);
  });
});
