import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CustodyClient } from "../../src/client/custody-client.js";
import { InvalidInputError, PageLimitError } from "../../src/client/errors.js";
import { buildCreateSolanaStakeRequest, buildSplitSolanaStakeRequest } from "../../src/kinds/solana/solana-stake-requests.js";
import { buildSendRequest } from "../../src/kinds/send/send-request.js";
import { buildApproveRequest } from "../../src/kinds/approve/approve-request.js";
import { stringifyJsonExact } from "../../src/json/exact-json.js";
import { isPolkadotAccount } from "../../src/schemas/account.js";
import { SOL, SOLANA_PAYOUT, SOLANA_RECIPIENT, SOLANA_VALIDATOR } from "../currency-fixtures.js";
import { json, ScriptedServer } from "./scripted-server.js";
import { BIG_POLKADOT_TOTAL, healthWire, pageWire, polkadotAccountWire, solanaStakeWire, STAKE_UID, transactionWire, userWire } from "./wire-fixtures.js";

const OPERATOR = "treasury-bot";
let server: ScriptedServer;

beforeEach(async () => {
  server = await ScriptedServer.start("/vendor-module");
});

afterEach(async () => {
  await server.close();
});

function client(baseUrl = server.baseUrl): CustodyClient {
  return new CustodyClient({ baseUrl, operator: OPERATOR, timeoutMs: 2_000, retry: { retries: 0 } });
}

describe("CustodyClient: what goes on the wire", () => {
  it("sends X-Vendor-API-User and Accept on every call, Content-Type only with a JSON body", async () => {
    server
      .on("GET", "/_health", json(healthWire))
      .on("POST", "/transactions", json(transactionWire(), 201))
      .on("POST", `/solana/accounts/3/stakes/${STAKE_UID}/actions/deactivate`, json(transactionWire({ type: "STAKE_DEACTIVATE" })));
    const custody = new CustodyClient({ baseUrl: server.baseUrl, operator: OPERATOR, userAgent: "treasury-service/2.1" });
    await custody.health();
    await custody.createTransaction(buildSendRequest(SOLANA_PAYOUT));
    await custody.deactivateSolanaStake(3, STAKE_UID);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.headers["x-vendor-api-user"]).toBe(OPERATOR);
      expect(request.headers.accept).toBe("application/json");
      expect(request.headers["user-agent"]).toBe("treasury-service/2.1");
    }
    const [health, create, deactivate] = server.requests;
    expect(health?.headers["content-type"]).toBeUndefined();
    expect(create?.headers["content-type"]).toBe("application/json");
    expect(deactivate?.headers["content-type"]).toBeUndefined();
    expect(deactivate?.body).toBe("");
  });

  it("sends the configured extra headers (a gateway token, an emulator key) with every call", async () => {
    server.on("GET", "/_health", json(healthWire)).on("POST", "/transactions", json(transactionWire(), 201));
    const custody = new CustodyClient({
      baseUrl: server.baseUrl,
      operator: OPERATOR,
      headers: { "X-Emulator-Key": "k".repeat(43), Authorization: "Bearer gateway" },
    });
    await custody.health();
    await custody.createTransaction(
      buildSendRequest({
        network: "Solana",
        account_name: "sol-hot",
        recipient: SOLANA_RECIPIENT,
        amount: 1n,
        max_fees: 5_000n,
        speed: "NORMAL",
        currency: SOL,
      }),
    );
    for (const request of server.requests) {
      expect(request.headers["x-emulator-key"]).toBe("k".repeat(43));
      expect(request.headers.authorization).toBe("Bearer gateway");
      expect(request.headers["x-vendor-api-user"]).toBe(OPERATOR);
    }
  });

  it("refuses an extra header that would replace the client's own or is malformed, naming it and never quoting its value", () => {
    const refusal = (headers: Record<string, string>) => {
      try {
        new CustodyClient({ baseUrl: server.baseUrl, operator: OPERATOR, headers });
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInputError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal({ "x-vendor-api-user": "someone-else" })).toMatch(/headers.*is set by the client itself/);
    expect(refusal({ "x-vendor-api-user": "someone-else" })).not.toContain("someone-else");
    expect(refusal({ "Content-Type": "text/plain" })).toMatch(/is set by the client itself/);
    // The client decodes only what it asks for.
    expect(refusal({ "Accept-Encoding": "zstd" })).toMatch(/headers\.Accept-Encoding: is set by the client itself/);
    expect(refusal({ "bad header": "x" })).toMatch(/must be an HTTP header name/);
    expect(refusal({ "X-Emulator-Key": "secret\nvalue" })).toMatch(/headers\.X-Emulator-Key: must be printable ASCII/);
    expect(refusal({ "X-Emulator-Key": "secret\nvalue" })).not.toContain("secret");
  });

  it("appends paths to a base URL that ends with the module's segment, with or without a trailing slash", async () => {
    server.on("GET", "/_health", json(healthWire), json(healthWire));
    await client(server.baseUrl).health();
    await client(`${server.baseUrl}/`).health();
    expect(server.received()).toEqual([
      { method: "GET", url: "/_health" },
      { method: "GET", url: "/_health" },
    ]);
  });

  it("takes a base URL trimmed of the whitespace around it, a no-break space included", async () => {
    server.on("GET", "/_health", json(healthWire));
    expect(client(`\u00a0${server.baseUrl}\u00a0`).baseUrl).toBe(server.baseUrl);
    await client(`\u00a0${server.baseUrl}\u00a0`).health();
    expect(server.received()).toEqual([{ method: "GET", url: "/_health" }]);
  });

  it("POST /transactions sends the builder's body exactly and decodes the Transaction amounts to bigint", async () => {
    server.on("POST", "/transactions", json(transactionWire({ amount: "1180591620717411303424" }), 201));
    const body = buildSendRequest({
      network: "Solana",
      account_name: "sol-hot",
      recipient: SOLANA_RECIPIENT,
      amount: 2n ** 70n,
      max_fees: 5_000n,
      speed: "NORMAL",
      currency: SOL,
      note: { title: "payout-2024-03", content: "March payout" },
    });
    const transaction = await client().createTransaction(body);
    expect(server.requests[0]?.body).toBe(stringifyJsonExact(body));
    expect(server.requests[0]?.body).toContain('"amount":{"value":"1180591620717411303424","unit":"lamport"}');
    expect(transaction.amount).toBe(2n ** 70n);
    expect(transaction.max_fees).toBe(5_000n);
    expect(transaction.notes).toEqual([{ title: "payout-2024-03", content: "March payout" }]);
  });

  it("Solana stake create and split send the amount as a raw JSON integer (above 2^53 too)", async () => {
    server
      .on("POST", "/solana/accounts/3/stakes", json(transactionWire({ type: "STAKE_CREATE_DELEGATE" })))
      .on("POST", `/solana/accounts/3/stakes/${STAKE_UID}/actions/split`, json(transactionWire({ type: "STAKE_SPLIT" })))
      .on("POST", `/solana/accounts/3/stakes/${STAKE_UID}/actions/split_deactivate`, json(transactionWire({ type: "STAKE_SPLIT_DEACTIVATE" })))
      .on("POST", `/solana/accounts/3/stakes/${STAKE_UID}/actions/delegate`, json(transactionWire({ type: "STAKE_DELEGATE" })))
      .on("POST", `/solana/accounts/3/stakes/${STAKE_UID}/actions/withdraw`, json(transactionWire({ type: "STAKE_WITHDRAW" })));
    const custody = client();
    const created = await custody.createSolanaStake(3, buildCreateSolanaStakeRequest({ amount: 9_007_199_254_740_993n, validator: SOLANA_VALIDATOR }));
    const split = await custody.splitSolanaStake(3, STAKE_UID, buildSplitSolanaStakeRequest({ amount: 2_000_000_000n }));
    const splitDeactivate = await custody.splitDeactivateSolanaStake(3, STAKE_UID, { amount: 1_000_000_000n });
    await custody.delegateSolanaStake(3, STAKE_UID, { validator: SOLANA_VALIDATOR });
    await custody.withdrawSolanaStake(3, STAKE_UID);
    expect(server.requests.map((request) => request.body)).toEqual([
      `{"amount":9007199254740993,"validator":"${SOLANA_VALIDATOR}"}`,
      '{"amount":2000000000}',
      '{"amount":1000000000}',
      `{"validator":"${SOLANA_VALIDATOR}"}`,
      "",
    ]);
    expect([created.type, split.type, splitDeactivate.type]).toEqual(["STAKE_CREATE_DELEGATE", "STAKE_SPLIT", "STAKE_SPLIT_DEACTIVATE"]);
  });

  it("a Polkadot balance above 2^53 arrives as the exact bigint", async () => {
    server.on("GET", "/accounts/7", json(polkadotAccountWire));
    const account = await client().getAccount(7);
    expect(server.requests[0]?.body).toBe("");
    expect(isPolkadotAccount(account)).toBe(true);
    if (!isPolkadotAccount(account)) return;
    expect(account.coin_fields.balances.total).toBe(BIG_POLKADOT_TOTAL);
    expect(account.coin_fields.balances.bonded).toBe(18_446_744_061_709_551_739n);
    expect(account.balance).toBe(BIG_POLKADOT_TOTAL);
    expect(account.coin_fields.balances.unbonding).toEqual([{ amount: 7_000_000_000n, waiting_time: 2_419_200 }]);
  });

  it("GET /solana/accounts/{id}/stakes answers a bare array; blockchain_state balances decode to bigint", async () => {
    server.on("GET", "/solana/accounts/3/stakes", json([solanaStakeWire])).on("GET", `/solana/accounts/3/stakes/${STAKE_UID}`, json(solanaStakeWire));
    const [stake] = await client().listSolanaStakes(3);
    expect(stake?.blockchain_state.total_balance).toBe(5_002_282_880n);
    expect(stake?.blockchain_state.rent_exempt_reserve).toBe(2_282_880n);
    expect(stake?.total_reward).toBe(1_523_004n);
    const one = await client().getSolanaStake(3, STAKE_UID);
    expect(one.uid).toBe(STAKE_UID);
  });

  it("takes the service's time from the Date header of its answers, the local clock until one carried it", async () => {
    const serviceTime = Date.parse("2031-05-06T07:08:09Z");
    server.on("GET", "/_health", json(healthWire, 200, { date: new Date(serviceTime).toUTCString() }), json(healthWire, 200, { date: "not a date" }));
    const custody = client();
    expect(Math.abs(custody.serviceNow().getTime() - Date.now())).toBeLessThan(1000);
    await custody.health();
    expect(Math.abs(custody.serviceNow().getTime() - serviceTime)).toBeLessThan(1000);
    await custody.health();
    expect(Math.abs(custody.serviceNow().getTime() - serviceTime)).toBeLessThan(1000);
  });

  it("percent-encodes path segments", async () => {
    server.on("GET", "/solana/accounts/3/stakes/a%2Fb%20c%3F", json({ ...solanaStakeWire, uid: "a/b c?" }));
    server.on("POST", "/api_users/bot%23one/register/uu%2Fid", json({ success: true }));
    const stake = await client().getSolanaStake(3, "a/b c?");
    expect(stake.uid).toBe("a/b c?");
    await client().registerApiUser("bot#one", "uu/id");
    expect(server.received().map((request) => request.url)).toEqual(["/solana/accounts/3/stakes/a%2Fb%20c%3F", "/api_users/bot%23one/register/uu%2Fid"]);
    expect(server.requests[1]?.body).toBe('{"name":"bot#one"}');
  });

  it("refuses dot segments and ids that are not whole numbers before sending anything", async () => {
    await expect(client().getCurrency("..")).rejects.toThrow(/currency: must be a non-empty path segment other than "." and ".."/);
    await expect(client().getAccount(1.5)).rejects.toThrow(InvalidInputError);
    await expect(client().getTransaction(-1)).rejects.toThrow(/transaction_id: must be a non-negative whole number, got -1/);
    expect(server.requests).toHaveLength(0);
  });

  it("module endpoints: create (DEVICE_ID accepted) and register with { name }", async () => {
    server
      .on("POST", "/api_users", json({ DEVICE_ID: "1f2e3d4c5b6a", name: OPERATOR, role: "OPERATOR", type_: "SOFT_PSD", workspace: "acme" }))
      .on("POST", `/api_users/${OPERATOR}/register/3b241101-e2bb-4255-8caf-4136c566a962`, json({ success: true }));
    const user = await client().createApiUser(OPERATOR);
    expect(user.device_id).toBe("1f2e3d4c5b6a");
    const registration = await client().registerApiUser(OPERATOR, "3b241101-e2bb-4255-8caf-4136c566a962");
    expect(registration).toEqual({ success: true });
    expect(server.requests.map((request) => request.body)).toEqual([`{"name":"${OPERATOR}"}`, `{"name":"${OPERATOR}"}`]);
  });

  it("the other endpoints call the right method and path and decode their answers", async () => {
    server
      .on("GET", "/accounts/7/sync", json({ success: true, account_id: 7 }))
      .on("GET", "/accounts/7/balance", json({ account_id: 7, currency: "DOT", balance: "100", available_balance: "40", staked_balance: "60" }))
      .on("GET", "/transactions/1201", json(transactionWire()))
      .on(
        "GET",
        "/transactions/1201/history",
        json({
          history: [
            [
              {
                id: 1,
                created_by: 42,
                created_on: "2024-03-01T10:00:00Z",
                expired_at: "2024-03-08T10:00:00Z",
                is_complete: false,
                status: "PENDING_APPROVAL",
                type: "CREATE_TRANSACTION",
              },
            ],
          ],
        }),
      )
      .on("POST", "/transactions/1201/approve", json(transactionWire({ status: "APPROVED" })))
      .on("POST", "/transactions/fees", json({ account_id: 3, currency: "SOL", speed: "NORMAL", fees: "5000", max_fees: "10000" }))
      .on(
        "GET",
        "/requests/9001/status",
        json({
          id: 9001,
          type: "CREATE_TRANSACTION",
          status: "PENDING_APPROVAL",
          transaction_id: 1201,
          created_by: 42,
          created_on: "2024-03-01T10:00:00Z",
          expired_at: "2024-03-08T10:00:00Z",
          is_complete: false,
          rule: "transaction",
          steps: [],
        }),
      )
      .on("GET", "/currencies/SOL", json(SOL))
      .on("GET", "/ethereum/accounts/5/stakes", json(pageWire([], false)));
    const custody = client();
    expect(await custody.syncAccount(7)).toEqual({ success: true, account_id: 7 });
    expect((await custody.getAccountBalance(7)).staked_balance).toBe(60n);
    expect((await custody.getTransaction(1201)).id).toBe(1201);
    expect((await custody.getTransactionHistory(1201)).history[0]?.[0]?.status).toBe("PENDING_APPROVAL");
    const approve = buildApproveRequest({ amount: 1_500_000_000n, max_fees: 5_000n, currency: SOL });
    expect((await custody.approveTransaction(1201, approve)).status).toBe("APPROVED");
    const send = buildSendRequest({
      network: "Solana",
      account_name: "sol-hot",
      recipient: SOLANA_RECIPIENT,
      amount: 1n,
      max_fees: 5_000n,
      speed: "NORMAL",
      currency: SOL,
    });
    const estimate = await custody.estimateFees(send);
    expect([estimate.fees, estimate.max_fees]).toEqual([5_000n, 10_000n]);
    expect((await custody.getRequestStatus(9001)).rule).toBe("transaction");
    expect((await custody.getCurrency("SOL")).units[0]?.code).toBe("lamport");
    expect((await custody.listEthereumStakes(5)).edges).toEqual([]);
    expect(server.unscripted).toEqual([]);
    expect(server.requests.find((request) => request.url.endsWith("/approve"))?.body).toBe(
      '{"amount":{"value":"1500000000","unit":"lamport"},"max_fees":{"value":"5000","unit":"lamport"}}',
    );
  });

  it("searchTransactions puts the filters in the query string", async () => {
    server.on("GET", "/transactions", json(pageWire([transactionWire()], false)));
    const page = await client().searchTransactions({ label: "payout 2024/03", account_id: 3, status: "SUBMITTED", page: 2, page_size: 50 });
    expect(page.edges[0]?.node.amount).toBe(1_500_000_000n);
    expect(server.received()[0]?.url).toBe("/transactions?label=payout+2024%2F03&account_id=3&status=SUBMITTED&page=2&page_size=50");
    await expect(client().searchTransactions({ status: "DONE" as "SUBMITTED" })).rejects.toThrow(/status/);
    await expect(client().listAccounts({ pageSize: 10 } as never)).rejects.toThrow(/GET \/accounts query: .*pageSize/);
    expect(server.requests).toHaveLength(1);
  });

  it("listAll walks pages from 1 until has_next_page is false", async () => {
    server.on("GET", "/users", json(pageWire([userWire, { ...userWire, id: 43 }], true)), json(pageWire([{ ...userWire, id: 44 }], false, 2)));
    const users = await client().listAllUsers({ pageSize: 2 });
    expect(users.map((user) => user.id)).toEqual([42, 43, 44]);
    expect(server.received().map((request) => request.url)).toEqual(["/users?page=1&page_size=2", "/users?page=2&page_size=2"]);
  });

  it("listAll stops at its hard cap with PageLimitError rather than return a truncated list", async () => {
    server.on("GET", "/accounts", json(pageWire([polkadotAccountWire], true)), json(pageWire([polkadotAccountWire], true)), json(pageWire([], true)));
    await expect(client().listAllAccounts({ maxPages: 2 })).rejects.toThrow(PageLimitError);
    expect(server.requests).toHaveLength(2);
    const seen: number[] = [];
    server.on(
      "GET",
      "/currencies/tokens",
      json(pageWire([{ name: "USDC", parent_currency: "ETH", contract_address: "0xa0b8", units: [{ code: "base", magnitude: 0 }] }], false)),
    );
    for await (const token of client().iterateTokens()) seen.push(token.units.length);
    expect(seen).toEqual([1]);
  });
});
