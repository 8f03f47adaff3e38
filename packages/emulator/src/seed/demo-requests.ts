import { encodeDepositCall, type Note, type PolkadotStakingType, type TransactionRequest } from "@custody/shared";

/** A plain send in base units. */
export function sendRequest(account: string, recipient: string, amount: bigint, maxFees: bigint, note?: Note): TransactionRequest {
  const request: TransactionRequest = {
    account_name: account,
    amount: amount.toString(),
    max_fees: maxFees.toString(),
    recipient,
    speed: "NORMAL",
    coin_fields: { type: "SEND" },
  };
  if (note) request.note = note;
  return request;
}

/** A Polkadot staking operation with the spec's fixed values. */
export function polkadotRequest(account: string, type: PolkadotStakingType, amount: bigint | null, payee?: string): TransactionRequest {
  return {
    account_name: account,
    amount: { value: amount === null ? null : amount.toString(), unit: "planck" },
    max_fees: { value: "0", unit: "planck" },
    recipient: "",
    speed: "CUSTOM",
    coin_fields: type === "SETPAYEE" ? { type, payee: payee ?? "Stash" } : { type },
  };
}

/** One validator's deposit call withdrawing to `withdrawTo` (made-up key, signature and root; the shape is the beacon deposit contract's). */
const demoDepositCallData = (withdrawTo: string): string =>
  encodeDepositCall({
    pubkey: "8f".repeat(48),
    withdrawal_credentials: `01${"00".repeat(11)}${withdrawTo.replace(/^0x/, "").toLowerCase()}`,
    signature: "a7".repeat(96),
    deposit_data_root: "3c".repeat(32),
  });

/** A deposit to a staking provider's contract (Ethereum staking, Usage rules point 3), its withdrawals to `withdrawTo` (the account's own address). */
export function ethereumStakeRequest(account: string, withdrawTo: string, contract: string, amount: bigint, maxFees: bigint): TransactionRequest {
  return {
    account_name: account,
    amount: amount.toString(),
    max_fees: maxFees.toString(),
    recipient: contract,
    speed: "NORMAL",
    coin_fields: { contract_interaction: { contract_data: demoDepositCallData(withdrawTo) } },
    note: { title: "Validator deposit", content: "32 ETH deposit through the provider contract" },
  };
}
