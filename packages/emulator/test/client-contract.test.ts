import {
  AmbiguousWriteError,
  buildApproveRequestFor,
  buildBondExtraRequest,
  buildCreateSolanaStakeRequest,
  buildDelegateSolanaStakeRequest,
  buildSendRequest,
  buildSplitSolanaStakeRequest,
  CustodyApiError,
  CustodyClient,
  parseUnits,
  stakeAllows,
  UnknownOperatorError,
} from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { startHarness, type Harness } from "./support/harness.js";
import { obj } from "./support/http-client.js";

/** shared/'s typed client (CustodyClient) driving the emulator's demo workspace through every method. */
describe("contract: CustodyClient against the emulator", () => {
  let h: Harness;
  let treasury: CustodyClient;
  let staking: CustodyClient;
  beforeAll(async () => {
    h = await startHarness({ seed: "demo" });
    const options = { baseUrl: h.emulator.baseUrl, retry: { baseDelayMs: 1, maxDelayMs: 20 } };
    treasury = new CustodyClient({ ...options, operator: "treasury-bot" });
    staking = new CustodyClient({ ...options, operator: "staking-bot" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("health, users, accounts (walking pages), balance, sync, currencies and tokens", async () => {
    expect(await treasury.health()).toEqual({ status: "OK", module_version: "1.19.2", api_version: "1.30.5" });
    const users = await treasury.listAllUsers({ pageSize: 2 });
    expect(users.filter((user) => user.is_api && user.status === "ACTIVE").map((user) => user.username)).toEqual(
      expect.arrayContaining(["treasury-bot", "staking-bot"]),
    );
    const accounts = await treasury.listAllAccounts({ pageSize: 4 });
    expect(accounts.map((account) => account.type)).toEqual(expect.arrayContaining(["Solana", "Polkadot", "Ethereum"]));
    const dot = accounts.find((account) => account.type === "Polkadot");
    expect((await treasury.getAccount(dot?.id ?? 0)).name).toBe(dot?.name);
    expect((await treasury.getAccountBalance(dot?.id ?? 0)).balances?.bonded).toBeGreaterThan(0n);
    expect((await treasury.syncAccount(dot?.id ?? 0)).success).toBe(true);
    expect((await treasury.getCurrency("solana_testnet")).units[1]?.code).toBe("SOL");
    expect((await treasury.listAllTokens({ pageSize: 1 })).length).toBeGreaterThan(1);
  });

  it("send, fee estimate, history, request status, label search and approval of a pending transaction", async () => {
    const sol = await treasury.getCurrency("solana_testnet");
    const account = (await treasury.listAllAccounts()).find((item) => item.name === "sol-treasury");
    const request = buildSendRequest({
      network: "Solana",
      account_name: "sol-treasury",
      recipient: externalSolana("contract"),
      amount: parseUnits("1.25", sol, "SOL"),
      max_fees: 10_000n,
      speed: "NORMAL",
      currency: sol,
      note: { title: "Contract test", content: "client send" },
    });
    const estimate = await treasury.estimateFees(request);
    expect(estimate.fees).toBe(5000n);
    const created = await treasury.createTransaction(request);
    expect(created.status).toBe("APPROVED");
    const submitted = await treasury.getTransaction(created.id);
    expect(submitted.status).toBe("SUBMITTED");
    expect(submitted.account_id).toBe(account?.id);
    const history = await treasury.getTransactionHistory(created.id);
    expect(history.history[0]?.map((entry) => entry.status)).toEqual(["APPROVED", "SIGNED", "SUBMITTED"]);
    expect((await treasury.getRequestStatus(created.last_request)).is_complete).toBe(true);
    expect((await treasury.searchAllTransactions({ label: "contract TEST" })).map((tx) => tx.id)).toEqual([created.id]);

    await h.control.put(`/accounts/${account?.id ?? 0}/governance`, {
      transaction: {
        creators: [
          { username: "treasury-bot", is_api: true },
          { username: "staking-bot", is_api: true },
        ],
        steps: [
          {
            quorum: 2,
            approvers: [
              { username: "treasury-bot", is_api: true },
              { username: "staking-bot", is_api: true },
            ],
          },
        ],
      },
      staking: account?.governance_rules?.staking ?? null,
      smart_contract: null,
    });
    const pending = await treasury.createTransaction(request);
    expect(pending.status).toBe("PENDING_APPROVAL");
    const approved = await staking.approveTransaction(pending.id, buildApproveRequestFor(pending, sol));
    expect(approved.status).toBe("APPROVED");
  });

  it("Polkadot staking through the request builders", async () => {
    const dot = await treasury.getCurrency("polkadot");
    const account = (await treasury.listAllAccounts()).find((item) => item.name === "dot-staking");
    const before = (await treasury.getAccountBalance(account?.id ?? 0)).balances?.bonded ?? 0n;
    const tx = await treasury.createTransaction(buildBondExtraRequest({ account_name: "dot-staking", amount: parseUnits("10", dot, "DOT"), currency: dot }));
    expect((await treasury.getTransaction(tx.id)).status).toBe("SUBMITTED");
    expect((await treasury.getAccountBalance(account?.id ?? 0)).balances?.bonded).toBe(before + parseUnits("10", dot, "DOT"));
  });

  it("Solana guided staking: create, list, split, deactivate, delegate; a refused action raises CustodyApiError 400", async () => {
    const sol = await staking.getCurrency("solana_testnet");
    const account = (await staking.listAllAccounts()).find((item) => item.name === "sol-treasury");
    const id = account?.id ?? 0;
    const created = await staking.createSolanaStake(
      id,
      buildCreateSolanaStakeRequest({ amount: parseUnits("3", sol, "SOL"), validator: externalSolana("validator-c") }),
    );
    expect(created.type).toBe("STAKE_CREATE_DELEGATE");
    const stakes = await staking.listSolanaStakes(id);
    const fresh = stakes.find(
      (stake) => stake.blockchain_state.total_balance === parseUnits("3", sol, "SOL") && stake.blockchain_state.status === "activating",
    );
    expect(fresh).toBeDefined();
    const uid = fresh?.uid ?? "";
    await expect(staking.delegateSolanaStake(id, uid, buildDelegateSolanaStakeRequest({ validator: externalSolana("v") }))).rejects.toMatchObject({
      status: 400,
    });
    expect((await staking.splitSolanaStake(id, uid, buildSplitSolanaStakeRequest({ amount: parseUnits("1", sol, "SOL") }))).type).toBe("STAKE_SPLIT");
    expect((await staking.deactivateSolanaStake(id, uid)).type).toBe("STAKE_DEACTIVATE");
    const deactivating = await staking.getSolanaStake(id, uid);
    expect(stakeAllows(deactivating, "delegate")).toBe(true);
    expect((await staking.delegateSolanaStake(id, uid, buildDelegateSolanaStakeRequest({ validator: externalSolana("v") }))).type).toBe("STAKE_DELEGATE");
    await expect(staking.withdrawSolanaStake(id, uid)).rejects.toBeInstanceOf(CustodyApiError);
  });

  it("Ethereum staking positions", async () => {
    const account = (await treasury.listAllAccounts()).find((item) => item.name === "eth-staking");
    const positions = await treasury.listAllEthereumStakes(account?.id ?? 0);
    expect(positions[0]).toMatchObject({ provider: "Kiln", status: "ACTIVE" });
  });

  it("typed errors: unknown operator, a GET retried through an injected 420, an ambiguous POST", async () => {
    const stranger = new CustodyClient({ baseUrl: h.emulator.baseUrl, operator: "stranger", retry: { retries: 0 } });
    await expect(stranger.health()).rejects.toBeInstanceOf(UnknownOperatorError);
    await h.control.put("/faults", { rate_limit_rate: 1, retry_after_seconds: 0, remaining: 1 });
    expect((await treasury.health()).status).toBe("OK");
    await h.control.put("/faults", { drop_after_rate: 1, methods: ["POST"], remaining: 1 });
    const sol = await treasury.getCurrency("solana_testnet");
    const send = buildSendRequest({
      network: "Solana",
      account_name: "sol-treasury",
      recipient: externalSolana("amb"),
      amount: 1000n,
      max_fees: 10_000n,
      speed: "NORMAL",
      currency: sol,
      note: { title: "ambiguous", content: "x" },
    });
    await expect(treasury.createTransaction(send)).rejects.toBeInstanceOf(AmbiguousWriteError);
    expect((await treasury.searchAllTransactions({ label: "ambiguous" })).length).toBe(1);
    expect(obj(await h.control.get("/faults")).affected).toBe(1);
  });
});
