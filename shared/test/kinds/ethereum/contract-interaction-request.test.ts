import { describe, expect, it } from "vitest";
import { stringifyJsonExact } from "../../../src/json/exact-json.js";
import { buildContractInteractionRequest, buildEthereumStakingRequest } from "../../../src/kinds/ethereum/contract-interaction-request.js";
import { ETH, STAKING_CALL_DATA, STAKING_CONTRACT } from "../../currency-fixtures.js";

const stake = {
  account_name: "eth-staking",
  contract_address: STAKING_CONTRACT,
  contract_data: STAKING_CALL_DATA,
  amount: 32_000_000_000_000_000_000n,
  max_fees: 3_000_000_000_000_000n,
  speed: "NORMAL" as const,
  currency: ETH,
};

describe("buildEthereumStakingRequest / buildContractInteractionRequest", () => {
  it("sends the staked amount to the provider's contract with contract_interaction.contract_data", () => {
    const body = buildEthereumStakingRequest({ ...stake, note: { title: "stake-32", content: "first validator" } });
    expect(body).toStrictEqual({
      account_name: "eth-staking",
      amount: { value: "32000000000000000000", unit: "wei" },
      max_fees: { value: "3000000000000000", unit: "wei" },
      recipient: STAKING_CONTRACT,
      speed: "NORMAL",
      coin_fields: { contract_interaction: { contract_data: STAKING_CALL_DATA } },
      note: { title: "stake-32", content: "first validator" },
    });
    expect(stringifyJsonExact(body)).toContain(`"coin_fields":{"contract_interaction":{"contract_data":"${STAKING_CALL_DATA}"}}`);
    expect(stringifyJsonExact(body)).not.toContain("smart_contract");
  });

  it("allows a zero amount for a plain contract call and carries the ABI-style inputs", () => {
    const body = buildContractInteractionRequest({
      ...stake,
      amount: 0n,
      abi_inputs: { function_name: "submit", arguments: [{ name: "_referral", type: "address", value: "0x0000000000000000000000000000000000000000" }] },
    });
    expect(body.amount).toStrictEqual({ value: "0", unit: "wei" });
    expect(body.coin_fields).toStrictEqual({
      contract_interaction: {
        contract_data: STAKING_CALL_DATA,
        function_name: "submit",
        arguments: [{ name: "_referral", type: "address", value: "0x0000000000000000000000000000000000000000" }],
      },
    });
  });

  it("refuses a zero stake, a malformed contract address and call data without a selector", () => {
    expect(() => buildEthereumStakingRequest({ ...stake, amount: 0n })).toThrow(/amount: must be a positive whole number of base units/);
    expect(() => buildContractInteractionRequest({ ...stake, contract_address: "0x1234" })).toThrow(
      /contract_address: must be an Ethereum address: 0x followed by 40 hex digits/,
    );
    expect(() => buildContractInteractionRequest({ ...stake, contract_data: "0x" })).toThrow(
      /contract_data: must be hex-encoded call data of at least 4 bytes/,
    );
    expect(() => buildContractInteractionRequest({ ...stake, contract_data: "0xa1903eab0" })).toThrow(/contract_data/);
  });
});
