import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Account,
  AccountPage,
  ApiUser,
  CreateSolanaStakeRequest,
  ErrorBody,
  formatIssues,
  Currency,
  isPolkadotAccount,
  parseJsonExact,
  polkadotFrozen,
  RegistrationResult,
  SolanaStake,
  SplitSolanaStakeRequest,
  stakeAllows,
  timestampToDate,
  Transaction,
  TransactionHistory,
  TransactionRequest,
  UserPage,
} from "../../src/index.js";
import * as ex from "./spec-examples.js";

function issues(result: { success: boolean; error?: z.ZodError }): string {
  return result.error ? formatIssues(result.error) : "";
}

describe("API user and registration", () => {
  it("accepts DEVICE_ID and device_id and normalises both to device_id", () => {
    expect(ApiUser.parse(ex.apiUserUpper).device_id).toBe("3f1c9a7e0b2d4c5e");
    expect(ApiUser.parse(ex.apiUserLower).device_id).toBe("3f1c9a7e0b2d4c5e");
    expect(ApiUser.parse(ex.apiUserUpper)).not.toHaveProperty("DEVICE_ID");
  });
  it("refuses a name with a space", () => {
    const result = ApiUser.safeParse({ ...ex.apiUserLower, name: "alice ops" });
    expect(result.success).toBe(false);
    expect(issues(result)).toMatch(/name[\s\S]*no space/);
  });
  it("refuses an answer whose DEVICE_ID and device_id differ, naming both", () => {
    const result = ApiUser.safeParse({ ...ex.apiUserLower, DEVICE_ID: "aaaa0000bbbb1111" });
    expect(result.success).toBe(false);
    expect(issues(result)).toMatch(/device_id: the answer carries both DEVICE_ID \("aaaa0000bbbb1111"\) and device_id \("3f1c9a7e0b2d4c5e"\), which differ/);
    const same = ApiUser.parse({ ...ex.apiUserLower, DEVICE_ID: ex.apiUserLower.device_id });
    expect(same.device_id).toBe("3f1c9a7e0b2d4c5e");
    expect(same).not.toHaveProperty("DEVICE_ID");
  });
  it("refuses an answer without any device identifier", () => {
    const { device_id: _drop, ...rest } = ex.apiUserLower;
    expect(ApiUser.safeParse(rest).success).toBe(false);
  });
  it("parses the registration result", () => {
    expect(RegistrationResult.parse({ success: true })).toEqual({ success: true });
    expect(RegistrationResult.safeParse({ success: "yes" }).success).toBe(false);
  });
});

describe("user list envelope", () => {
  it("parses edges and page_info and keeps unknown fields", () => {
    const page = UserPage.parse({ ...ex.userPage, extra_top: 1, edges: [{ ...ex.userPage.edges[0], node: { ...ex.userRecord, mfa: "x" } }] });
    expect(page.page_info).toEqual({ count: 1, has_next_page: false });
    expect(page.edges[0]?.node.username).toBe("alice_ops");
    expect(page.edges[0]?.node).toHaveProperty("mfa", "x");
    expect(page).toHaveProperty("extra_top", 1);
  });
  it("refuses a record with a non-integer id", () => {
    const result = UserPage.safeParse({ ...ex.userPage, edges: [{ cursor: 0, node: { ...ex.userRecord, id: "12" } }] });
    expect(result.success).toBe(false);
    expect(issues(result)).toMatch(/edges\[0\]\.node\.id: /);
  });
});

describe("transaction requests: every coin_fields variant", () => {
  it.each([
    ["Solana SEND with amount objects", ex.solanaSendRequest],
    ["Polkadot BONDEXTRA", ex.polkadotStakingRequest("BONDEXTRA")],
    ["Polkadot UNBOND", ex.polkadotStakingRequest("UNBOND")],
    ["Polkadot REBOND", ex.polkadotStakingRequest("REBOND")],
    ["Polkadot WITHDRAWUNBONDED with null value", ex.polkadotWithdrawRequest],
    ["Polkadot SETPAYEE with payee", ex.polkadotSetPayeeRequest],
    ["Ethereum contract interaction with plain strings", ex.ethereumStakeRequest],
  ])("parses %s", (_name, body) => {
    const parsed = TransactionRequest.parse(body);
    expect(parsed.account_name).toBe(body.account_name);
    expect(parsed.coin_fields).toEqual(body.coin_fields);
  });
  it("accepts an amount value given as a number", () => {
    const parsed = TransactionRequest.parse({ ...ex.solanaSendRequest, amount: { value: 1500000000, unit: "lamport" } });
    expect(parsed.amount).toEqual({ value: 1500000000, unit: "lamport" });
  });
  it("names the renamed smart_contract field", () => {
    const result = TransactionRequest.safeParse({ ...ex.ethereumStakeRequest, coin_fields: { smart_contract: { contract_data: "0x00" } } });
    expect(issues(result)).toMatch(/coin_fields[\s\S]*renamed coin_fields\.contract_interaction/);
  });
  it("refuses SETPAYEE without payee and an unknown type, listing the variants", () => {
    const noPayee = TransactionRequest.safeParse({ ...ex.polkadotSetPayeeRequest, coin_fields: { type: "SETPAYEE" } });
    expect(issues(noPayee)).toMatch(/coin_fields[\s\S]*SETPAYEE", payee: string/);
    expect(issues(noPayee)).toMatch(/coin_fields\.payee: required for SETPAYEE: the new rewards destination/);
    expect(issues(noPayee)).not.toMatch(/Invalid input/);
    const unknown = TransactionRequest.safeParse({ ...ex.solanaSendRequest, coin_fields: { type: "BURN" } });
    expect(unknown.success).toBe(false);
  });
  it("names the rule of a missing or mistyped base-unit amount", () => {
    const missing = SplitSolanaStakeRequest.safeParse({});
    expect(issues(missing)).toBe("amount: required: a whole number of base units");
    expect(issues(CreateSolanaStakeRequest.safeParse({ validator: "x" }))).toBe("amount: required: a whole number of base units");
    expect(issues(SplitSolanaStakeRequest.safeParse({ amount: true }))).toMatch(/^amount: must be a non-negative whole number of base units .*got true$/);
    expect(issues(SplitSolanaStakeRequest.safeParse({ amount: "1.5" }))).toMatch(/^amount: must be a non-negative whole number of base units .*got "1\.5"$/);
  });
  it("refuses call data that is not hex", () => {
    const result = TransactionRequest.safeParse({ ...ex.ethereumStakeRequest, coin_fields: { contract_interaction: { contract_data: "0xZZ" } } });
    expect(result.success).toBe(false);
  });
  it("refuses a missing recipient, an unknown speed and an amount of the wrong type", () => {
    const { recipient: _r, ...noRecipient } = ex.solanaSendRequest;
    expect(issues(TransactionRequest.safeParse(noRecipient))).toMatch(/recipient/);
    expect(issues(TransactionRequest.safeParse({ ...ex.solanaSendRequest, speed: "TURBO" }))).toMatch(/speed[\s\S]*SLOW, NORMAL, FAST, CUSTOM/);
    expect(issues(TransactionRequest.safeParse({ ...ex.solanaSendRequest, amount: 5 }))).toMatch(/amount/);
  });
});

describe("transactions and history", () => {
  it("decodes base-unit strings to bigint and keeps coin_fields and extra fields", () => {
    const tx = Transaction.parse({ ...ex.solanaDeactivateTransaction, block_confirmation: { height: 1 } });
    expect(tx.amount).toBe(0n);
    expect(tx.fees).toBe(5000n);
    expect(tx.coin_fields).toEqual(ex.solanaDeactivateTransaction.coin_fields);
    expect(tx).toHaveProperty("block_confirmation");
    expect(tx.senders).toHaveLength(1);
  });
  it("accepts null fees, broadcast_on, tx_hash and coin_fields before broadcast", () => {
    const tx = Transaction.parse(ex.pendingTransaction);
    expect(tx.fees).toBeNull();
    expect(tx.tx_hash).toBeNull();
  });
  it("refuses a negative or decimal amount and an unknown status", () => {
    expect(issues(Transaction.safeParse({ ...ex.pendingTransaction, amount: "-5" }))).toMatch(/amount[\s\S]*non-negative whole number/);
    expect(Transaction.safeParse({ ...ex.pendingTransaction, max_fees: "1.5" }).success).toBe(false);
    expect(Transaction.safeParse({ ...ex.pendingTransaction, status: "DONE" }).success).toBe(false);
  });
  it("round-trips a transaction through encode", () => {
    const tx = Transaction.parse(ex.solanaDeactivateTransaction);
    expect(z.encode(Transaction, tx)).toEqual(ex.solanaDeactivateTransaction);
  });
  it("parses the history as an array of arrays", () => {
    const parsed = TransactionHistory.parse(ex.history);
    expect(parsed.history[0]?.map((entry) => entry.status)).toEqual(["PENDING_APPROVAL", "APPROVED", "SIGNED", "SUBMITTED"]);
  });
});

describe("accounts", () => {
  it("parses the Polkadot coin_fields in the fee_frozen/misc_frozen form", () => {
    const account = Account.parse(ex.polkadotAccountLegacy);
    expect(isPolkadotAccount(account)).toBe(true);
    if (!isPolkadotAccount(account)) return;
    expect(account.coin_fields.balances.bonded).toBe(20_000_000_000_000n);
    expect(account.coin_fields.balances.unbonding[0]?.waiting_time).toBe(1_209_600);
    expect(polkadotFrozen(account.coin_fields.balances)).toBe(20_000_000_000_000n);
  });
  it("parses the later single frozen form", () => {
    const account = Account.parse(ex.polkadotAccountFrozen);
    if (!isPolkadotAccount(account)) throw new Error("expected a Polkadot account");
    expect(account.coin_fields.balances.frozen).toBe(20_000_000_000_000n);
    expect(polkadotFrozen(account.coin_fields.balances)).toBe(20_000_000_000_000n);
  });
  it("refuses Polkadot balances with no frozen field or half the legacy pair", () => {
    const { frozen: _f, ...noFrozen } = ex.polkadotAccountFrozen.coin_fields.balances;
    const result = Account.safeParse({ ...ex.polkadotAccountFrozen, coin_fields: { ...ex.polkadotAccountFrozen.coin_fields, balances: noFrozen } });
    expect(result.success).toBe(false);
    const half = { ...noFrozen, fee_frozen: 1 };
    expect(Account.safeParse({ ...ex.polkadotAccountFrozen, coin_fields: { ...ex.polkadotAccountFrozen.coin_fields, balances: half } }).success).toBe(false);
  });
  it("parses other networks' coin_fields as sent", () => {
    const account = Account.parse(ex.solanaAccount);
    expect(account.balance).toBe(125_000_000_000n);
    expect(account.coin_fields).toEqual({ type: "Solana" });
  });
  it("keeps a Polkadot balance above 2^53 exact through parseJsonExact", () => {
    const text = JSON.stringify(ex.polkadotAccountFrozen).replace('"bonded":20000000000000', '"bonded":123456789012345678901234567890');
    const account = Account.parse(parseJsonExact(text));
    if (!isPolkadotAccount(account)) throw new Error("expected a Polkadot account");
    expect(account.coin_fields.balances.bonded).toBe(123456789012345678901234567890n);
  });
  it("parses the accounts list envelope", () => {
    const page = AccountPage.parse({ edges: [{ cursor: 0, node: ex.solanaAccount }], page_info: { count: 1, has_next_page: false } });
    expect(page.edges[0]?.node.name).toBe("Treasury SOL");
  });
});

describe("currency, Solana stake, error body", () => {
  it("parses currencies with units and refuses one without a base unit", () => {
    expect(Currency.parse(ex.solanaCurrency).units[1]).toEqual({ code: "SOL", magnitude: 9 });
    expect(Currency.safeParse({ name: "x", units: [{ code: "X", magnitude: 6 }] }).success).toBe(false);
    expect(Currency.safeParse({ name: "x", units: [] }).success).toBe(false);
  });
  it("parses a Solana stake whose created_on has no offset", () => {
    const stake = SolanaStake.parse(ex.solanaStake);
    expect(stake.blockchain_state.total_balance).toBe(10_002_282_880n);
    expect(stake.total_reward).toBe(1_234_567n);
    expect(timestampToDate(stake.created_on).toISOString()).toBe("2023-01-20T08:15:30.123Z");
    expect(stakeAllows(stake, "deactivate")).toBe(true);
    expect(stakeAllows(stake, "delegate")).toBe(false);
  });
  it("refuses an unknown blockchain status", () => {
    expect(SolanaStake.safeParse({ ...ex.solanaStake, blockchain_state: { ...ex.solanaStake.blockchain_state, status: "frozen" } }).success).toBe(false);
  });
  it("parses the error body", () => {
    expect(ErrorBody.parse(ex.errorBody).status_code).toBe(400);
  });
});

describe("timestamps", () => {
  it.each([
    ["2023-02-14T09:30:00.123456+00:00", "2023-02-14T09:30:00.123Z"],
    ["2023-02-14T09:30:00Z", "2023-02-14T09:30:00.000Z"],
    ["2023-02-14T09:30:00", "2023-02-14T09:30:00.000Z"],
    ["2023-02-14T11:30:00+02:00", "2023-02-14T09:30:00.000Z"],
  ])("reads %s", (text, iso) => {
    expect(timestampToDate(text).toISOString()).toBe(iso);
  });
});
