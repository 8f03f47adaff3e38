import { AccountBalance, Currency, ErrorBody, FeeEstimate, Health, RequestStatus, TokenPage, Transaction, TransactionPage } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { expectStatus, governance, operatorsRule } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { ETH, OP_A, OP_B, SOL, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

const RECIPIENT = externalSolana("conventions");

function send(account: string, amount: unknown, maxFees: unknown = "7500", note?: { title: string; content: string }) {
  return { account_name: account, amount, max_fees: maxFees, recipient: RECIPIENT, speed: "NORMAL", ...(note ? { note } : {}) };
}

describe("API conventions: errors, lists, amounts, approvals, status, fees", () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await standardWorkspace();
  });
  afterAll(async () => {
    await w.close();
  });

  it("errors answer {message, name, status_code}; unknown resources 404, wrong methods 405, bad JSON 400", async () => {
    const missing = await w.api(OP_A).get("/transactions/999999");
    expect(missing.status).toBe(404);
    expect(decode(ErrorBody, missing)).toMatchObject({ name: "NotFound", status_code: 404 });
    expect((await w.api(OP_A).get("/nothing-here")).status).toBe(404);
    const method = await w.api(OP_A).call("DELETE", "/accounts");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET, HEAD");
    const bad = await w.api(OP_A).call("POST", "/transactions", undefined, "{not json");
    expect(bad.status).toBe(400);
    expect(decode(ErrorBody, bad).name).toBe("InvalidJson");
    const invalid = await w.api(OP_A).post("/transactions", { account_name: "sol-auto" });
    expect(invalid.status).toBe(400);
    expect(decode(ErrorBody, invalid).message).toMatch(/amount: .*; max_fees: .*recipient: .*speed: /);
  });

  it("HEAD answers as GET does, without the body (RFC 9110: every general-purpose server supports GET and HEAD)", async () => {
    for (const path of ["/_health", `/accounts/${w.ids["sol-auto"]}`, "/transactions?page_size=2"]) {
      const get = await w.api(OP_A).get(path);
      const head = await w.api(OP_A).call("HEAD", path);
      expect(head.status, path).toBe(200);
      expect(head.text, path).toBe("");
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
    }
    const health = await w.api(OP_A).call("HEAD", "/_health");
    expect(Number(health.headers.get("content-length"))).toBe(Buffer.byteLength((await w.api(OP_A).get("/_health")).text));
    expect((await w.api(OP_A).call("HEAD", "/accounts/abc")).status).toBe(400);
    expect((await w.api(OP_A).call("HEAD", "/accounts/999999")).status).toBe(404);
    expect((await w.api("nobody").call("HEAD", "/_health")).status).toBe(400);
    const postOnly = await w.api(OP_A).call("HEAD", "/transactions/1/approve");
    expect(postOnly.status).toBe(405);
    expect(postOnly.headers.get("allow")).toBe("POST");
  });

  it("writes its simulated time in the Date header of every answer, the clock a client dates waiting times by", async () => {
    const dateOf = async () => Date.parse((await w.api(OP_A).get("/_health")).headers.get("date") ?? "");
    const simulated = async () => Number(obj(await w.control.get("/clock")).now_ms);
    await w.control.post("/clock/advance", { seconds: 3 * 86_400 });
    const clock = await simulated();
    const date = await dateOf();
    // The header has whole seconds; the simulated clock runs 3 days ahead of this machine's.
    expect(date).toBeGreaterThanOrEqual(clock - 1000);
    expect(date).toBeLessThan(clock + 5000);
    expect(date - Date.now()).toBeGreaterThan(3 * 86_400_000 - 5000);
  });

  it("the health body reports the module and API versions", async () => {
    expect(decode(Health, expectStatus(await w.api(OP_A).get("/_health"), 200))).toEqual({ status: "OK", module_version: "1.19.2", api_version: "1.30.5" });
  });

  it("lists use {edges, page_info}, page (1-based) and page_size; bad values are refused naming the parameter", async () => {
    const first = obj(expectStatus(await w.api(OP_A).get("/accounts?page=1&page_size=4"), 200));
    expect(first.page_info).toEqual({ count: 6, has_next_page: true });
    expect((first.edges as unknown[]).length).toBe(4);
    const second = obj(await w.api(OP_A).get("/accounts?page=2&page_size=4"));
    expect(second.page_info).toEqual({ count: 6, has_next_page: false });
    expect((second.edges as { cursor: number }[]).map((edge) => edge.cursor)).toEqual([4, 5]);
    for (const [query, name] of [
      ["page=0", "page"],
      ["page_size=1001", "page_size"],
      ["page_size=abc", "page_size"],
      ["page=-1", "page"],
    ]) {
      const answer = await w.api(OP_A).get(`/accounts?${query}`);
      expect(answer.status).toBe(400);
      expect(decode(ErrorBody, answer).message.startsWith(`${name}: must be a whole number`)).toBe(true);
    }
  });

  it("amounts are base units only: the unit must be the magnitude-0 unit, the value digits (or a safe integer)", async () => {
    const refusals: [unknown, RegExp][] = [
      [{ value: "1.5", unit: "SOL" }, /^amount\.unit: only base units are accepted \(since release 4\.21\): use lamport/],
      [{ value: "1.5", unit: "lamport" }, /^amount\.value: base units are whole numbers/],
      ["1e9", /^amount: must be written out in full digits/],
      ["-5", /^amount: must not be negative/],
      [{ value: null, unit: "lamport" }, /^amount\.value: must be a whole number of base units; null is only for/],
      [{ value: 1.5, unit: "lamport" }, /^amount\.value: a JSON number must be a non-negative whole number/],
      [{ value: "5", unit: "BTC" }, /^amount\.unit: unit "BTC" is not a unit of solana_testnet/],
    ];
    for (const [amount, message] of refusals) {
      const answer = await w.api(OP_A).post("/transactions", send("sol-auto", amount));
      expect(answer.status, JSON.stringify(amount)).toBe(400);
      expect(decode(ErrorBody, answer).message).toMatch(message);
    }
    const maxFees = await w.api(OP_A).post("/transactions", send("sol-auto", "1", { value: "0.01", unit: "SOL" }));
    expect(decode(ErrorBody, maxFees).message).toMatch(/^max_fees\.unit: only base units/);
    const numeric = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", send("sol-auto", { value: 1000, unit: "lamport" })), 200));
    expect(numeric.amount).toBe(1000n);
  });

  it("amounts beyond 2^53 stay exact, whether sent as digits or as a JSON integer", async () => {
    const big = 9_007_199_254_740_993n;
    const text =
      `{"account_name":"eth-auto","amount":{"value":${big},"unit":"wei"},` +
      `"max_fees":"3000000000000000","recipient":"${w.addresses["eth-small"]}","speed":"NORMAL"}`;
    const created = decode(Transaction, expectStatus(await w.api(OP_A).call("POST", "/transactions", undefined, text), 200));
    expect(created.amount).toBe(big);
    expect(created.amount).toBeLessThan(40n * ETH);
  });

  it("a JSON number written with a fraction, exponent or sign is refused even when it reads as an integer", async () => {
    const count = async () => decode(TransactionPage, await w.api(OP_A).get("/transactions")).page_info.count;
    const before = await count();
    const body = (value: string) =>
      `{"account_name":"sol-auto","amount":{"value":${value},"unit":"lamport"},"max_fees":"7500","recipient":"${RECIPIENT}","speed":"NORMAL"}`;
    const refusals: [string, RegExp][] = [
      // JSON.parse reads each of these as the integer 1000000 (the first after rounding).
      ["1000000.00000000001", /^amount\.value: base units are whole numbers; a decimal point is not allowed, got "1000000\.00000000001"/],
      ["1000000.0", /^amount\.value: base units are whole numbers/],
      ["1e6", /^amount\.value: must be written out in full digits/],
      ["9007199254740993.0", /got "9007199254740993\.0"/],
      ["-0", /^amount\.value: must not be negative/],
    ];
    for (const [value, message] of refusals) {
      const answer = await w.api(OP_A).call("POST", "/transactions", undefined, body(value));
      expect(answer.status, value).toBe(400);
      expect(decode(ErrorBody, answer).message, value).toMatch(message);
    }
    const validator = externalSolana("written-number-validator");
    for (const amount of ["4999999999.99999999", "5E9", "5000000000.0"]) {
      const text = `{"amount":${amount},"validator":"${validator}"}`;
      const answer = await w.api(OP_A).call("POST", `/solana/accounts/${w.ids["sol-auto"]}/stakes`, undefined, text);
      expect(answer.status, amount).toBe(400);
      expect(decode(ErrorBody, answer).message, amount).toMatch(/^amount: must be a non-negative whole number of base units/);
    }
    expect(await count()).toBe(before);
    const plain = await w.api(OP_A).call("POST", "/transactions", undefined, body("1000000"));
    expect(decode(Transaction, expectStatus(plain, 200)).amount).toBe(1_000_000n);
  });

  it("a send of amount 0 is refused as a validation error naming amount, not as InsufficientFunds", async () => {
    for (const amount of ["0", { value: "0", unit: "lamport" }, { value: 0, unit: "SOL" }]) {
      const answer = await w.api(OP_A).post("/transactions", send("sol-auto", amount));
      expect(answer.status, JSON.stringify(amount)).toBe(400);
      const error = decode(ErrorBody, answer);
      expect(error.name).toBe("ValidationError");
      expect(error.message).toMatch(/^amount: must be greater than 0 base units for a SEND/);
    }
  });

  it("a body with notes (plural) is refused: requests take note, singular; nothing is created", async () => {
    const count = async () => decode(TransactionPage, await w.api(OP_A).get("/transactions")).page_info.count;
    const before = await count();
    for (const notes of [[{ title: "Rent", content: "April" }], [], { title: "Rent", content: "April" }]) {
      const answer = await w.api(OP_A).post("/transactions", { ...send("sol-auto", "100"), notes });
      expect(answer.status, JSON.stringify(notes)).toBe(400);
      expect(decode(ErrorBody, answer)).toMatchObject({
        name: "ValidationError",
        message: "notes: requests take note (singular), an object { title, content }",
      });
    }
    expect(await count()).toBe(before);
    const created = decode(
      Transaction,
      expectStatus(await w.api(OP_A).post("/transactions", send("sol-auto", "100", "7500", { title: "Rent", content: "April" })), 200),
    );
    expect(created.notes).toEqual([{ title: "Rent", content: "April" }]);
  });

  it("a missing required field says required, naming it", async () => {
    const { amount: _amount, ...noAmount } = send("sol-auto", "100");
    const missing = decode(ErrorBody, await w.api(OP_A).post("/transactions", noAmount)).message;
    expect(missing).toMatch(/^amount: required\b/);
    const { recipient: _recipient, ...noRecipient } = send("sol-auto", "100");
    expect(decode(ErrorBody, await w.api(OP_A).post("/transactions", noRecipient)).message).toBe("recipient: required");
    const noValue = decode(ErrorBody, await w.api(OP_A).post("/transactions", send("sol-auto", { unit: "lamport" }))).message;
    expect(noValue).toMatch(/(^|; )amount\.value: required\b/);
    const wrong = decode(ErrorBody, await w.api(OP_A).post("/transactions", { ...send("sol-auto", "100"), recipient: 5 })).message;
    expect(wrong).not.toMatch(/required/);
  });

  it("a send above the available balance is refused (400), so no balance goes negative", async () => {
    const answer = await w.api(OP_A).post("/transactions", send("sol-nostaking", (10n * SOL).toString()));
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer)).toMatchObject({ name: "InsufficientFunds" });
  });

  it("GET /transactions searches notes by label (title or content, any case) and filters by account_id and status", async () => {
    await w.api(OP_A).post("/transactions", send("sol-auto", "100", "7500", { title: "Quarterly PAYROLL", content: "staff" }));
    await w.api(OP_A).post("/transactions", send("sol-human", "100", "7500", { title: "Vendor", content: "invoice for payroll tooling" }));
    await w.api(OP_A).post("/transactions", send("sol-auto", "100", "7500", { title: "Other", content: "nothing" }));
    const found = decode(TransactionPage, await w.api(OP_A).get("/transactions?label=payroll"));
    expect(found.page_info.count).toBe(2);
    const byAccount = decode(TransactionPage, await w.api(OP_A).get(`/transactions?label=payroll&account_id=${w.ids["sol-human"]}`));
    expect(byAccount.edges.map((edge) => edge.node.account_id)).toEqual([w.ids["sol-human"]]);
    const pending = decode(TransactionPage, await w.api(OP_A).get("/transactions?status=PENDING_APPROVAL"));
    expect(pending.edges.every((edge) => edge.node.status === "PENDING_APPROVAL")).toBe(true);
    expect(pending.page_info.count).toBeGreaterThan(0);
    expect((await w.api(OP_A).get("/transactions?status=DONE")).status).toBe(400);
  });

  it("the approve endpoint: amount and max_fees must match; unlisted operators 403; a second approval completes the rule", async () => {
    await w.control.put(
      `/accounts/${w.ids["sol-nostaking"]}/governance`,
      governance({
        creators: operatorsRule(OP_A).creators,
        steps: [
          {
            quorum: 2,
            approvers: [
              { username: OP_A, is_api: true },
              { username: OP_B, is_api: true },
            ],
          },
        ],
      }),
    );
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", send("sol-nostaking", "2500")), 200));
    expect(created.status).toBe("PENDING_APPROVAL");
    const status = decode(RequestStatus, expectStatus(await w.api(OP_A).get(`/requests/${created.last_request}/status`), 200));
    expect(status.steps[0]).toMatchObject({ quorum: 2, is_complete: false });
    expect(status.steps[0]?.approvals.map((approval) => approval.username)).toEqual([OP_A]);
    const wrongAmount = await w.api(OP_B).post(`/transactions/${created.id}/approve`, { amount: "2501", max_fees: "7500" });
    expect(wrongAmount.status).toBe(400);
    expect(decode(ErrorBody, wrongAmount).message).toMatch(/^amount: must equal the amount of transaction/);
    const wrongFees = await w.api(OP_B).post(`/transactions/${created.id}/approve`, { amount: "2500", max_fees: { value: "7000", unit: "lamport" } });
    expect(decode(ErrorBody, wrongFees).message).toMatch(/^max_fees: must equal/);
    expect((await w.api(OP_A).post(`/transactions/${created.id}/approve`, { amount: "2500", max_fees: "7500" })).status).toBe(409);
    const approved = decode(
      Transaction,
      expectStatus(await w.api(OP_B).post(`/transactions/${created.id}/approve`, { amount: { value: "2500", unit: "lamport" }, max_fees: "7500" }), 200),
    );
    expect(approved.status).toBe("APPROVED");
    const done = decode(RequestStatus, await w.api(OP_A).get(`/requests/${created.last_request}/status`));
    expect(done.steps[0]?.is_complete).toBe(true);
    expect(done.is_complete).toBe(true);
  });

  it("an operator not listed in the rule that applies cannot create (403)", async () => {
    await w.control.put(`/accounts/${w.ids["sol-human"]}/governance`, governance(operatorsRule(OP_A)));
    const answer = await w.api(OP_B).post("/transactions", send("sol-human", "100"));
    expect(answer.status).toBe(403);
    expect(decode(ErrorBody, answer)).toMatchObject({ name: "NotInGovernanceRule" });
  });

  it("fee estimation answers the fee and a max_fees to propose; Polkadot staking is 0", async () => {
    const estimate = decode(
      FeeEstimate,
      expectStatus(await w.api(OP_A).post("/transactions/fees", { account_name: "sol-auto", amount: "1", recipient: RECIPIENT, speed: "NORMAL" }), 200),
    );
    expect(estimate).toMatchObject({ account_id: w.ids["sol-auto"], fees: 5000n, max_fees: 7500n });
    const eth = decode(
      FeeEstimate,
      await w.api(OP_A).post("/transactions/fees", { account_name: "eth-auto", amount: "1", recipient: w.addresses["eth-small"], speed: "FAST" }),
    );
    expect(eth.fees).toBe(21_000n * 20_000_000_000n);
    const dot = decode(
      FeeEstimate,
      await w.api(OP_A).post("/transactions/fees", {
        account_name: "dot-auto",
        amount: { value: "1", unit: "planck" },
        recipient: "",
        speed: "CUSTOM",
        coin_fields: { type: "BONDEXTRA" },
      }),
    );
    expect([dot.fees, dot.max_fees]).toEqual([0n, 0n]);
  });

  it("balance, sync, currencies and tokens", async () => {
    const balance = decode(AccountBalance, expectStatus(await w.api(OP_A).get(`/accounts/${w.ids["dot-auto"]}/balance`), 200));
    expect(balance.balances?.total).toBe(balance.balance);
    expect(obj(expectStatus(await w.api(OP_A).get(`/accounts/${w.ids["sol-auto"]}/sync`), 200))).toEqual({ success: true, account_id: w.ids["sol-auto"] });
    const sol = decode(Currency, expectStatus(await w.api(OP_A).get("/currencies/solana_testnet"), 200));
    expect(sol.units).toEqual([
      { code: "lamport", magnitude: 0 },
      { code: "SOL", magnitude: 9 },
    ]);
    expect((await w.api(OP_A).get("/currencies/nope")).status).toBe(404);
    const tokens = decode(TokenPage, expectStatus(await w.api(OP_A).get("/currencies/tokens"), 200));
    expect(tokens.page_info.count).toBeGreaterThan(0);
  });
});
