import type { RunningEmulator } from "@custody/emulator";
import { SOLANA_EPOCH_NONE } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control } from "./harness/control-plane.js";
import { accountNamed, DEMO, depositCallData, directClient } from "./harness/demo-workspace.js";
import { call, connectHarness, startTestEmulator, type Harness } from "./harness/mcp-harness.js";

let emulator: RunningEmulator;
let harness: Harness;

beforeAll(async () => {
  emulator = await startTestEmulator();
  await control(emulator, "POST", "/reset", { seed: "demo" });
  harness = await connectHarness(emulator);
});
afterAll(async () => {
  await harness.close();
  await emulator.close();
});

const amount = (base: string, display: string, unit: string) => ({ base_units: base, display, unit });

describe("read tools", () => {
  it("health_check: connected as the operator, versions and the module version check", async () => {
    const result = await call(harness.client, "health_check");
    expect(result.structured).toMatchObject({ status: "OK", operator: DEMO.treasuryBot, module_version: "1.19.2", api_version: "1.30.5" });
    expect(result.structured.checks).toEqual([
      expect.objectContaining({ code: "MODULE_VERSION_OK" }),
      expect.objectContaining({ code: "OPERATOR_CAN_READ", severity: "info" }),
    ]);
    expect(result.text).toContain("Connected as treasury-bot (this server acts as this one operator)");
  });

  it("health_check: what this operator may do on each account, creator or approver in which rule", async () => {
    const result = await call(harness.client, "health_check");
    const permissions = result.structured.permissions as { account: { name: string }; creates: string[]; approves: string[] }[];
    const of = (name: string) => permissions.find((permission) => permission.account.name === name);
    expect(permissions).toHaveLength(6);
    expect(of(DEMO.solTreasury)).toMatchObject({ creates: ["transaction"], approves: ["transaction"] });
    expect(of(DEMO.ethStaking)).toMatchObject({ creates: ["transaction"], approves: ["transaction"] });
    expect(of(DEMO.ethOps)).toMatchObject({ creates: ["transaction", "smart_contract"], approves: ["transaction", "smart_contract"] });
    expect(result.text).toContain('<untrusted field="name">sol-treasury</untrusted> (1): creates under transaction; approves under transaction');
    const staking = await connectHarness(emulator, { operator: DEMO.stakingBot });
    const stakingView = await call(staking.client, "health_check");
    await staking.close();
    expect(stakingView.text).toContain(
      '<untrusted field="name">sol-treasury</untrusted> (1): creates under transaction, staking; approves under transaction, staking',
    );
    expect(stakingView.text).toContain('<untrusted field="name">sol-cold</untrusted> (2): in none of its rules');
  });

  it("health_check: a suspended, then revoked operator is an error naming its status, not OK", async () => {
    const legacy = await connectHarness(emulator, { operator: "legacy-bot" });
    const suspended = await call(legacy.client, "health_check");
    await control(emulator, "POST", "/users/legacy-bot/revoke");
    const revoked = await call(legacy.client, "health_check");
    await legacy.close();
    expect(suspended.isError).toBe(true);
    expect(suspended.structured).toMatchObject({
      status: "SUSPENDED",
      operator: "legacy-bot",
      error: expect.stringContaining("the workspace reports it SUSPENDED"),
    });
    expect(suspended.structured.checks).toContainEqual(expect.objectContaining({ code: "OPERATOR_REFUSED", severity: "block" }));
    expect(suspended.text).toMatch(/^Error: legacy-bot cannot act: the workspace reports it SUSPENDED/);
    expect(suspended.text).not.toContain(": OK");
    expect(suspended.text).toMatch(/block OPERATOR_REFUSED: .*the workspace refused its read of GET \/accounts: .*HTTP 403/);
    // The error's body, delimited in the error's message, is not delimited again inside the check's delimiter.
    expect(suspended.text).toMatch(/block OPERATOR_REFUSED: <untrusted field="checks.OPERATOR_REFUSED">[^<‹]*HTTP 403: [^<‹]*<\/untrusted>/);
    expect(suspended.text).not.toContain("‹untrusted");
    expect(revoked.isError).toBe(true);
    expect(revoked.structured.status).toBe("REVOKED");
    expect(revoked.text).toMatch(/^Error: legacy-bot cannot act: the workspace reports it REVOKED/);
  });

  it("health_check: per account, who else must approve what this operator creates (sol-cold's second step)", async () => {
    const result = await call(harness.client, "health_check");
    const permissions = result.structured.permissions as { account: { name: string }; waits_for?: unknown }[];
    expect(permissions.find((permission) => permission.account.name === DEMO.solCold)?.waits_for).toEqual([
      {
        rule: "transaction",
        steps: [
          {
            step: 2,
            needs: 1,
            of: [
              { username: "dana.approver", is_api: false },
              { username: "erin.approver", is_api: false },
            ],
          },
        ],
      },
    ]);
    expect(permissions.find((permission) => permission.account.name === DEMO.solTreasury)?.waits_for).toBeUndefined();
    expect(result.text).toContain(
      '<untrusted field="name">sol-cold</untrusted> (2): creates under transaction; approves under ' +
        "transaction; every transaction request it creates waits for step 2: 1 of <untrusted " +
        'field="approvers">dana.approver (person), erin.approver (person)</untrusted>',
    );
  });

  it("health_check: an operator unknown to the module is told so", async () => {
    const stranger = await connectHarness(emulator, { operator: "nobody-bot" });
    const result = await call(stranger.client, "health_check");
    await stranger.close();
    expect(result.isError).toBe(true);
    expect(result.structured).toMatchObject({
      status: "UNKNOWN",
      operator: "nobody-bot",
      error: expect.stringMatching(/does not know the operator "nobody-bot"/),
    });
  });

  it("list_users: people and operators, usernames delimited as untrusted in the text", async () => {
    const result = await call(harness.client, "list_users", { page_size: 50 });
    const users = result.structured.users as { username: string; is_api: boolean }[];
    expect(users.map((user) => user.username)).toContain(DEMO.stakingBot);
    expect(result.text).toContain('<untrusted field="username">staking-bot</untrusted>');
  });

  it("list_users: no key material unless asked; creators by name", async () => {
    const plain = await call(harness.client, "list_users", {});
    const users = plain.structured.users as Record<string, unknown>[];
    expect(users.every((user) => !("pub_key" in user) && !("key_handle" in user) && !("user_id" in user))).toBe(true);
    expect(users.find((user) => user.username === DEMO.treasuryBot)).toMatchObject({ created_by: { id: 1, username: "alice.admin" } });
    const withKeys = await call(harness.client, "list_users", { include_keys: true });
    expect(
      (withKeys.structured.users as Record<string, unknown>[]).every((user) => typeof user.pub_key === "string" && typeof user.key_handle === "string"),
    ).toBe(true);
    expect(JSON.stringify(plain.structured).length).toBeLessThan(JSON.stringify(withKeys.structured).length / 2);
  });

  it("list_accounts: balances in base and display units", async () => {
    const result = await call(harness.client, "list_accounts");
    const accounts = result.structured.accounts as { name: string; currency: string; balance: unknown }[];
    const dot = accounts.find((account) => account.name === DEMO.dotStaking);
    expect(dot?.balance).toEqual(amount("50000000000000", "5000", "DOT"));
    expect(result.structured.page_info).toMatchObject({ count: accounts.length, has_next_page: false });
  });

  it('get_account: by name, by its id in digits and by "#" and its id; every base-unit amount in both units', async () => {
    const byName = await call(harness.client, "get_account", { account: DEMO.dotStaking });
    const account = byName.structured.account as { id: number; coin_fields: { balances: { bonded: unknown } }; governance_rules: unknown };
    expect(account.coin_fields.balances.bonded).toEqual(amount("32000000000000", "3200", "DOT"));
    expect(byName.text).toContain("bonded 3200 DOT (32000000000000 planck), unbonding ");
    expect(account.governance_rules).toBeDefined();
    // The text gives the rules its description promises: who creates and who approves under each.
    expect(byName.text).toContain(
      'Governance rules: transaction: <untrusted field="governance_rules.transaction">creators: treasury-bot (API), staking-bot (API); approvers: ',
    );
    expect(byName.text).toContain("; staking: none (no request of this kind can be created); smart_contract: none");
    // The same account whichever way it is named; its unbonding dates may move by the second between two reads.
    const undated = (structured: unknown) => JSON.parse(JSON.stringify(structured).replace(/"unlocks_at":"[^"]*"|"waiting_time_seconds":\d+/g, '"x":0'));
    expect(undated((await call(harness.client, "get_account", { account: String(account.id) })).structured)).toEqual(undated(byName.structured));
    expect(undated((await call(harness.client, "get_account", { account: `#${account.id}` })).structured)).toEqual(undated(byName.structured));
    const chunk = (account.coin_fields.balances as unknown as { unbonding: { waiting_time_seconds: number; unlocks_at: string }[] }).unbonding[0];
    expect(chunk?.waiting_time_seconds).toBeGreaterThan(0);
    expect(byName.text).toContain(`unlocks ${chunk?.unlocks_at.slice(0, 16)}Z`);
  });

  it("get_account: a wrong name is refused with the nearest names; an id as a JSON number is refused by the schema (one type: a string)", async () => {
    const wrong = await call(harness.client, "get_account", { account: "dot" });
    expect(wrong.structured.error).toMatch(/^account: no account is named "dot"; did you mean <untrusted field="account.name">dot-staking<\/untrusted>/);
    const numeric = await call(harness.client, "get_account", { account: 1 });
    expect(numeric.isError).toBe(true);
    expect(numeric.text).toContain(
      `Invalid arguments for tool get_account: account: must be a string, the account's id in digits ("42") or its exact name, got the number 1`,
    );
  });

  it("get_account_balance: the network's own balances", async () => {
    const result = await call(harness.client, "get_account_balance", { account: DEMO.dotStaking });
    expect((result.structured.balance as { balances: { total_unbonded: unknown } }).balances.total_unbonded).toEqual(amount("1000000000000", "100", "DOT"));
    expect(result.text).toContain("bonded 3200 DOT (32000000000000 planck)");
    const sol = await call(harness.client, "get_account_balance", { account: DEMO.solTreasury });
    expect((sol.structured.balance as { staked_balance: { unit: string } }).staked_balance.unit).toBe("SOL");
  });

  it("sync_account: asks for a refresh", async () => {
    const result = await call(harness.client, "sync_account", { account: DEMO.solTreasury });
    expect(result.structured).toMatchObject({ success: true });
  });

  it("get_transaction and get_transaction_history", async () => {
    const transaction = await call(harness.client, "get_transaction", { transaction_id: 1 });
    const view = transaction.structured.transaction as { id: number; amount: { base_units: string; display: string; unit: string }; status: string };
    expect(view.id).toBe(1);
    expect(view.amount.base_units).toMatch(/^[0-9]+$/);
    const history = await call(harness.client, "get_transaction_history", { transaction_id: 1 });
    const entries = (history.structured.history as { status: string }[][]).flat().map((entry) => entry.status);
    expect(entries).toContain("SUBMITTED");
    const missing = await call(harness.client, "get_transaction", { transaction_id: 999_999 });
    expect(missing.isError).toBe(true);
    expect(missing.structured.error).toBe("transaction_id: no transaction has the id 999999");
  });

  it("search_transactions: by note label, by account and by status", async () => {
    const pending = await call(harness.client, "search_transactions", { status: "PENDING_APPROVAL" });
    const found = pending.structured.transactions as { id: number; status: string; notes: { title: string }[] }[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((transaction) => transaction.status === "PENDING_APPROVAL")).toBe(true);
    const title = found[0]?.notes[0]?.title ?? "";
    const byLabel = await call(harness.client, "search_transactions", { label: title });
    expect((byLabel.structured.transactions as { id: number }[]).map((transaction) => transaction.id)).toContain(found[0]?.id);
    expect(pending.text).toContain(`<untrusted field="notes[0]">${title}`);
    const account = await accountNamed(emulator, DEMO.dotStaking);
    const byAccount = await call(harness.client, "search_transactions", { account: DEMO.dotStaking });
    expect((byAccount.structured.transactions as { account_id: number }[]).every((transaction) => transaction.account_id === account.id)).toBe(true);
  });

  it("get_request_status: steps, quorum and approvals, by transaction or request id", async () => {
    const pending = (await directClient(emulator).searchTransactions({ status: "PENDING_APPROVAL" })).edges[0]?.node;
    if (!pending) throw new Error("no pending transaction in the demo");
    const byTransaction = await call(harness.client, "get_request_status", { transaction_id: pending.id });
    const request = byTransaction.structured.request as { id: number; status: string; steps: { quorum: number }[] };
    expect(request.status).toBe("PENDING_APPROVAL");
    expect(request.steps.length).toBeGreaterThan(0);
    expect((await call(harness.client, "get_request_status", { request_id: request.id })).structured).toEqual(byTransaction.structured);
    const neither = await call(harness.client, "get_request_status", {});
    expect(neither.structured.error).toMatch(/^transaction_id, request_id: give exactly one/);
  });

  it("estimate_fees: the estimate and the proposed max_fees, in both units", async () => {
    const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
    const result = await call(harness.client, "estimate_fees", { account: DEMO.solTreasury, amount: "1", unit: "SOL", recipient });
    expect(result.structured.fees).toEqual(amount("5000", "0.000005", "SOL"));
    expect(result.structured.max_fees).toEqual(amount("7500", "0.0000075", "SOL"));
    const contract = await call(harness.client, "estimate_fees", {
      account: DEMO.ethStaking,
      amount: "0",
      unit: "ETH",
      recipient: DEMO.usdcContract,
      contract_data: depositCallData(DEMO.kilnContract),
    });
    expect((contract.structured.fees as { unit: string }).unit).toBe("ETH");
  });

  it("get_currency and list_tokens", async () => {
    const currency = await call(harness.client, "get_currency", { currency: "polkadot" });
    expect(currency.structured).toMatchObject({
      display_unit: "DOT",
      currency: { name: "polkadot", units: expect.arrayContaining([{ code: "planck", magnitude: 0 }]) },
    });
    const tokens = await call(harness.client, "list_tokens");
    expect((tokens.structured.tokens as { name: string }[]).map((token) => token.name)).toContain("usd_coin");
  });

  it("list_solana_stakes and get_solana_stake: actions by name, balances in both units", async () => {
    const list = await call(harness.client, "list_solana_stakes", { account: DEMO.solTreasury });
    const stakes = list.structured.stakes as { uid: string; actions: string[]; blockchain_state: { total_balance: { unit: string } } }[];
    expect(stakes.length).toBeGreaterThan(0);
    expect(stakes[0]?.blockchain_state.total_balance.unit).toBe("SOL");
    expect(stakes.flatMap((stake) => stake.actions)).toContain("withdraw");
    const one = await call(harness.client, "get_solana_stake", { account: DEMO.solTreasury, stake_uid: stakes[0]?.uid });
    expect((one.structured.stake as { uid: string }).uid).toBe(stakes[0]?.uid);
  });

  it("list_solana_stakes: epochs are numbers, and a stake never deactivated shows deactivation_epoch null, not Solana's u64::MAX nor an amount", async () => {
    const raw = await directClient(emulator).listSolanaStakes((await accountNamed(emulator, DEMO.solTreasury)).id);
    const list = await call(harness.client, "list_solana_stakes", { account: DEMO.solTreasury });
    const states = (
      list.structured.stakes as { uid: string; blockchain_state: { status: string; activation_epoch: unknown; deactivation_epoch: unknown } }[]
    ).map((stake) => stake.blockchain_state);
    expect(states.length).toBe(raw.length);
    for (const [index, state] of states.entries()) {
      const wire = raw[index]?.blockchain_state;
      expect(state.activation_epoch).toBe(Number(wire?.activation_epoch));
      if (wire?.deactivation_epoch === SOLANA_EPOCH_NONE) expect(state.deactivation_epoch).toBeNull();
      else expect(state.deactivation_epoch).toBe(Number(wire?.deactivation_epoch));
    }
    expect(raw.some((stake) => stake.blockchain_state.deactivation_epoch === SOLANA_EPOCH_NONE)).toBe(true);
  });

  it("list_ethereum_stakes: positions with amounts in both units", async () => {
    const result = await call(harness.client, "list_ethereum_stakes", { account: DEMO.ethStaking });
    const stakes = result.structured.stakes as { amount: unknown; provider: string }[];
    expect(stakes[0]?.amount).toEqual(amount("32000000000000000000", "32", "ETH"));
  });
});

describe("health_check with workspace text in a rule", () => {
  afterAll(async () => {
    await control(emulator, "POST", "/reset", { seed: "demo" });
  });

  it("names who else must approve with their usernames sanitised in the structure too, and no other field of the workspace's member record", async () => {
    const rule = {
      creators: [{ username: DEMO.treasuryBot, is_api: true }],
      steps: [
        { quorum: 1, approvers: [{ username: DEMO.treasuryBot, is_api: true }] },
        { quorum: 1, approvers: [{ username: "mallory\u202Eevil", is_api: false }] },
      ],
    };
    await control(emulator, "POST", "/accounts", {
      name: "rtl-approver",
      currency: "solana_testnet",
      governance: { transaction: rule, staking: null, smart_contract: null },
      balance: "1000000000",
    });
    const result = await call(harness.client, "health_check");
    const permissions = result.structured.permissions as { account: { name: string }; waits_for?: unknown }[];
    expect(permissions.find((permission) => permission.account.name === "rtl-approver")?.waits_for).toEqual([
      { rule: "transaction", steps: [{ step: 2, needs: 1, of: [{ username: "mallory\\u{202E}evil", is_api: false }] }] },
    ]);
    expect(JSON.stringify(result.structured)).not.toContain("\u202E");
  });
});
