import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { accountNamed, DEMO, depositCallData, directClient } from "./harness/demo-workspace.js";
import { call, connectHarness, startTestEmulator, type Harness } from "./harness/mcp-harness.js";

// What a tool says about its own input: an unknown key is refused and named (never dropped), and
// every error names a field the tool has, under that field's name.

let emulator: RunningEmulator;
let harness: Harness;
let recipient: string;

beforeAll(async () => {
  emulator = await startTestEmulator();
  harness = await connectHarness(emulator);
  recipient = (await accountNamed(emulator, DEMO.solCold)).address;
});
afterAll(async () => {
  await harness.close();
  await emulator.close();
});

const transactionCount = async () => (await directClient(emulator).searchTransactions({ page: 1, page_size: 1 })).page_info.count;

/** Each call is an error saying `error` (its field and rule), never the service's 404 for the path the server read. */
async function expectRefusedNamingInput(cases: readonly (readonly [string, Record<string, unknown>, string])[]): Promise<void> {
  for (const [tool, args, error] of cases) {
    const result = await call(harness.client, tool, args);
    expect(result.isError, `${tool}: ${result.text}`).toBe(true);
    expect(result.text, tool).toContain(error);
    expect(result.text, tool).not.toContain("HTTP 404");
  }
}

describe("unknown keys", () => {
  it("every tool advertises that it takes no key beyond its own", async () => {
    const { tools } = await harness.client.listTools();
    expect(tools).toHaveLength(ALL_TOOLS.length);
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  });

  it("a misspelt key of a read tool is refused, naming it and the tool's fields", async () => {
    const result = await call(harness.client, "get_account", { account: DEMO.solTreasury, acount: DEMO.solCold });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('"acount": unknown field of get_account, which takes account');
  });

  it("a tool without arguments refuses any", async () => {
    const result = await call(harness.client, "health_check", { verbose: true });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('"verbose": unknown field of health_check, which takes no arguments');
  });

  it("a write with a misspelt max_fees or token is refused, not run as a dry run without them; nothing is sent", async () => {
    const before = await transactionCount();
    const args = { account: DEMO.solTreasury, recipient, amount: "0.5", unit: "SOL" };
    const typo = await call(harness.client, "create_transaction", { ...args, max_fee: "0.01" });
    expect(typo.isError).toBe(true);
    expect(typo.text).toContain('"max_fee": unknown field of create_transaction');
    expect(typo.token).toBeUndefined();
    const dry = await call(harness.client, "create_transaction", args);
    const camel = await call(harness.client, "create_transaction", { ...args, confirmationToken: dry.token });
    expect(camel.isError).toBe(true);
    expect(camel.text).toContain('"confirmationToken": unknown field of create_transaction');
    expect(camel.text).toContain("confirmation_token");
    expect(await transactionCount()).toBe(before);
  });

  it("refuses __proto__ and constructor keys, naming them (a JSON-RPC body's own keys, not the prototype's)", async () => {
    for (const key of ["__proto__", "constructor"]) {
      const args = JSON.parse(`{"account": ${JSON.stringify(DEMO.solTreasury)}, ${JSON.stringify(key)}: {"polluted": true}}`) as Record<string, unknown>;
      const result = await call(harness.client, "get_account", args);
      expect(result.isError, `${key}: ${result.text}`).toBe(true);
      expect(result.text).toContain(`"${key}": unknown field of get_account, which takes account`);
    }
  });

  it("names every unknown key of one call", async () => {
    const result = await call(harness.client, "list_accounts", { page: 1, pages: 2, size: 3 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('"pages", "size": unknown field of list_accounts, which takes page, page_size');
  });
});

describe("errors name the tool's own fields", () => {
  it("estimate_fees: a bad contract address is the recipient's fault, not contract_address's", async () => {
    const result = await call(harness.client, "estimate_fees", {
      account: DEMO.ethStaking,
      amount: "0",
      unit: "ETH",
      recipient: "not-an-address",
      contract_data: depositCallData(DEMO.kilnContract),
    });
    expect(result.isError).toBe(true);
    expect(result.structured.error).toMatch(/\brecipient: must be/);
    expect(result.structured.error).not.toContain("contract_address");
  });

  it("estimate_fees: a bad send recipient is named recipient too", async () => {
    const result = await call(harness.client, "estimate_fees", { account: DEMO.solTreasury, amount: "1", unit: "SOL", recipient: "" });
    expect(result.isError).toBe(true);
    expect(result.structured.error).toMatch(/\brecipient: /);
  });

  it("a unit that is not the currency's is reported under unit, a bad amount under amount", async () => {
    const wrongUnit = await call(harness.client, "estimate_fees", { account: DEMO.solTreasury, amount: "1", unit: "DOT", recipient });
    expect(wrongUnit.structured.error).toMatch(/^unit: unit "DOT" is not a unit of solana_testnet/);
    const unknownUnit = await call(harness.client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "1", unit: "XYZ" });
    expect(unknownUnit.structured.error).toMatch(/^unit: unit "XYZ" is not a unit of solana_testnet/);
    const emptyUnit = await call(harness.client, "polkadot_unbond", { account: DEMO.dotStaking, amount: "1", unit: "" });
    expect(emptyUnit.structured.error).toMatch(/^unit: must name a unit of polkadot/);
    const badAmount = await call(harness.client, "estimate_fees", { account: DEMO.solTreasury, amount: "1,5", unit: "SOL", recipient });
    expect(badAmount.structured.error).toMatch(/^amount: /);
  });

  it("max_fees_unit names its own field, and max_fees its own", async () => {
    const args = { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL" };
    const wrongFeeUnit = await call(harness.client, "create_transaction", { ...args, max_fees: "0.01", max_fees_unit: "ETH" });
    expect(wrongFeeUnit.structured.error).toMatch(/^max_fees_unit: unit "ETH" is not a unit of solana_testnet/);
    const badFees = await call(harness.client, "create_transaction", { ...args, max_fees: "ten", max_fees_unit: "SOL" });
    expect(badFees.structured.error).toMatch(/^max_fees: /);
  });

  it("ethereum_stake: a bad contract address is reported under contract, its own field, not contract_address", async () => {
    const result = await call(harness.client, "ethereum_stake", {
      account: DEMO.ethStaking,
      contract: "0x12",
      contract_data: depositCallData(DEMO.kilnContract),
      amount: "32",
      unit: "ETH",
    });
    // A request the builder refuses comes back as a blocking finding, beside the rules' own findings.
    expect(result.structured.status).toBe("blocked");
    const invalid = ((result.structured.checks ?? []) as { code: string; message: string }[]).find((check) => check.code === "REQUEST_INVALID");
    expect(invalid?.message).toMatch(/: contract: must be an Ethereum address/);
    expect(result.text).not.toContain("contract_address");
  });

  it("polkadot_set_payee: a destination spelled in another case is blocked under payee, not coin_fields.payee", async () => {
    const result = await call(harness.client, "polkadot_set_payee", { account: DEMO.dotVault, payee: "staked" });
    expect(result.structured.status).toBe("blocked");
    expect(result.text).not.toContain("coin_fields.payee");
    const unknown = ((result.structured.checks ?? []) as { code: string; message: string }[]).find((check) => check.code === "POLKADOT_PAYEE_UNKNOWN");
    expect(unknown?.message).toBe(
      'payee "staked" is not a rewards destination: must be Staked or Stash (also Controller, deprecated, ' +
        'and None, which forfeits the rewards); did you mean "Staked"? (spelled so)',
    );
  });

  it("a transaction or request id that is not a positive whole number is refused with that rule, for 0 as for 16.5", async () => {
    for (const [tool, field] of [
      ["get_transaction", "transaction_id"],
      ["get_transaction_history", "transaction_id"],
      ["approve_transaction", "transaction_id"],
      ["get_request_status", "transaction_id"],
      ["get_request_status", "request_id"],
    ] as const) {
      for (const id of [16.5, 0, -1]) {
        const result = await call(harness.client, tool, { [field]: id });
        expect(result.isError, `${tool} ${id}`).toBe(true);
        expect(result.text, `${tool} ${id}`).toContain(`${field}: must be a positive whole number, got ${id}`);
        expect(result.text).not.toContain("non-negative");
      }
      const huge = await call(harness.client, tool, { [field]: 1e300 });
      expect(huge.text, `${tool} 1e300`).toContain(`${field}: must be at most 9007199254740991 (the largest id a JSON number carries exactly), got 1e+300`);
    }
  });

  it("a Solana stake action: a stake uid that cannot be a path segment is reported under stake_uid, not uid", async () => {
    const result = await call(harness.client, "solana_deactivate_stake", { account: DEMO.solTreasury, stake_uid: ".." });
    expect(result.structured.status).toBe("failed");
    expect(result.structured.error).toMatch(/: stake_uid: must be a non-empty path segment/);
    expect(result.structured.error).not.toMatch(/[^_]uid: /);
  });

  it("an id or uid that names nothing is refused under its own field, not as the path the server read; nothing is sent", async () => {
    const before = await transactionCount();
    const cases = [
      ["create_transaction", { account: "#4242", recipient, amount: "1", unit: "SOL" }, "account: no account has the id 4242"],
      ["get_account", { account: "#4242" }, "account: no account has the id 4242"],
      ["approve_transaction", { transaction_id: 424242 }, "transaction_id: no transaction has the id 424242"],
      ["get_transaction", { transaction_id: 424242 }, "transaction_id: no transaction has the id 424242"],
      ["get_request_status", { transaction_id: 424242 }, "transaction_id: no transaction has the id 424242"],
      ["solana_deactivate_stake", { account: DEMO.solTreasury, stake_uid: "no-such-stake" }, 'stake_uid: account 1 has no stake "no-such-stake"'],
      ["get_solana_stake", { account: DEMO.solTreasury, stake_uid: "no-such-stake" }, 'stake_uid: account 1 has no stake "no-such-stake"'],
    ] as const;
    await expectRefusedNamingInput(cases);
    expect(await transactionCount()).toBe(before);
  });

  it("a stake read on an account of another network is refused under account, naming the network, not as the service's 404", async () => {
    const cases = [
      ["list_solana_stakes", { account: DEMO.ethStaking }, "account: listing Solana stakes needs a Solana account"],
      ["get_solana_stake", { account: DEMO.dotStaking, stake_uid: "any" }, "account: reading a Solana stake needs a Solana account"],
      ["list_ethereum_stakes", { account: DEMO.solTreasury }, "account: listing Ethereum stakes needs an Ethereum account"],
    ] as const;
    await expectRefusedNamingInput(cases);
  });

  it("an account on another network is named with the right article", async () => {
    const result = await call(harness.client, "ethereum_stake", {
      account: DEMO.solTreasury,
      contract: DEMO.kilnContract,
      contract_data: depositCallData(DEMO.kilnContract),
      amount: "32",
      unit: "SOL",
    });
    expect(result.structured.error).toMatch(
      /^account: Ethereum staking needs an Ethereum account; <untrusted field="account.name">sol-treasury<\/untrusted> \(id \d+\) is <untrusted field="account.type">Solana<\/untrusted>/,
    );
  });
});
