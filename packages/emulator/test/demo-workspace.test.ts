import { AccountPage, SolanaStakeList, TransactionPage, UserPage } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, startHarness, type Harness } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { decode } from "./support/wire.js";

describe("the demo workspace and the control plane's reset", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: "demo", basePath: "/vault" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("serves under the configured base path; at least two ACTIVE operators are reported", async () => {
    expect(h.emulator.baseUrl.endsWith("/vault")).toBe(true);
    expect(h.emulator.operators).toEqual(expect.arrayContaining(["treasury-bot", "staking-bot"]));
    const users = decode(UserPage, await h.api("treasury-bot").get("/users?page_size=100")).edges.map((edge) => edge.node);
    expect(users.filter((user) => user.is_api && user.status === "ACTIVE").length).toBeGreaterThanOrEqual(2);
    expect(users.find((user) => user.username === "legacy-bot")?.status).toBe("SUSPENDED");
  });

  it("has accounts on each network with realistic balances, stakes and both governance paths in its history", async () => {
    const accounts = decode(AccountPage, await h.api("treasury-bot").get("/accounts")).edges.map((edge) => edge.node);
    for (const network of ["Solana", "Polkadot", "Ethereum"]) expect(accounts.filter((account) => account.type === network).length).toBeGreaterThanOrEqual(2);
    expect(accounts.every((account) => account.balance > 0n)).toBe(true);
    const sol = accounts.find((account) => account.name === "sol-treasury");
    const stakes = decode(SolanaStakeList, await h.api("staking-bot").get(`/solana/accounts/${sol?.id ?? 0}/stakes`));
    expect(stakes.map((stake) => stake.blockchain_state.status)).toEqual(expect.arrayContaining(["activated", "deactivated"]));
    const transactions = decode(TransactionPage, await h.api("treasury-bot").get("/transactions?page_size=100")).edges.map((edge) => edge.node);
    const statuses = new Set(transactions.map((tx) => tx.status));
    for (const status of ["SUBMITTED", "PENDING_APPROVAL", "REJECTED", "EXPIRED"]) expect(statuses.has(status as never)).toBe(true);
    const topUp = transactions.find(
      (tx) => tx.status === "SUBMITTED" && tx.type === "SEND" && tx.currency === "solana_testnet" && tx.notes[0]?.title === "Exchange top-up",
    );
    const history = obj(await h.api("treasury-bot").get(`/transactions/${topUp?.id ?? 0}/history`));
    expect((history.history as { status: string }[][])[0]?.map((entry) => entry.status)).toEqual(["PENDING_APPROVAL", "APPROVED", "SIGNED", "SUBMITTED"]);
  });

  it("reset with the empty seed leaves currencies and administrators only", async () => {
    const summary = obj(expectStatus(await h.control.post("/reset", { seed: "empty" }), 200));
    expect(summary).toMatchObject({ accounts: 0, transactions: 0, operators: [] });
    expect((await h.api("treasury-bot").get("/_health")).status).toBe(400);
    const again = obj(expectStatus(await h.control.post("/reset", { seed: "demo" }), 200));
    expect(again.operators).toEqual(expect.arrayContaining(["treasury-bot", "staking-bot"]));
    expect((await h.api("treasury-bot").get("/_health")).status).toBe(200);
  });
});
