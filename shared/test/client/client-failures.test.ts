import type { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CustodyClientOptions } from "../../src/client/client-options.js";
import { CustodyClient } from "../../src/client/custody-client.js";
import {
  AmbiguousWriteError,
  CustodyApiError,
  InvalidInputError,
  NetworkError,
  RateLimitedError,
  ResponseValidationError,
  TimeoutError,
  UnknownOperatorError,
} from "../../src/client/errors.js";
import { stringifyJsonExact } from "../../src/json/exact-json.js";
import { buildCreateSolanaStakeRequest } from "../../src/kinds/solana/solana-stake-requests.js";
import { buildSendRequest } from "../../src/kinds/send/send-request.js";
import { UNKNOWN_OPERATOR_ERROR_NAME } from "../../src/schemas/error-body.js";
import type { PolkadotCoinFields } from "../../src/schemas/polkadot-coin-fields.js";
import { SOLANA_PAYOUT, SOLANA_VALIDATOR } from "../currency-fixtures.js";
import type { Scripted } from "./scripted-server.js";
import { json, ScriptedServer, text } from "./scripted-server.js";
import { TRANSPORTS } from "./transports.js";
import { caught } from "./caught.js";
import { healthWire, polkadotAccountWire, transactionWire } from "./wire-fixtures.js";

const OPERATOR = "treasury-bot";
type PolkadotCoinFieldsWire = z.input<typeof PolkadotCoinFields>;
let server: ScriptedServer;
let transport: Partial<CustodyClientOptions> = {};

beforeEach(async () => {
  server = await ScriptedServer.start("/module");
});

afterEach(async () => {
  await server.close();
});

function client(options: Partial<CustodyClientOptions> = {}): CustodyClient {
  return new CustodyClient({
    baseUrl: server.baseUrl,
    operator: OPERATOR,
    timeoutMs: 1_000,
    retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2_000, random: () => 0 },
    ...transport,
    ...options,
  });
}

const sendBody = () => buildSendRequest({ ...SOLANA_PAYOUT, note: { title: "payout-2024-03-ref-77", content: "March payout" } });

const repeat = (times: number, answer: Scripted): Scripted[] => Array.from({ length: times }, () => answer);

describe.each(TRANSPORTS)("through $name", ({ options, droppedCode }) => {
  beforeEach(() => {
    transport = options;
  });

  describe("GET retries", () => {
    it("retries 5xx, 420 and 429 then succeeds", async () => {
      server.on(
        "GET",
        "/accounts/7",
        text(503, "busy"),
        json({ name: "TooManyRequests", message: "slow down", status_code: 429 }, 429),
        text(420, "enhance your calm"),
        json(polkadotAccountWire),
      );
      const account = await client().getAccount(7);
      expect(account.id).toBe(7);
      expect(server.requests).toHaveLength(4);
    });

    it("honours Retry-After in seconds", async () => {
      server.on("GET", "/_health", text(420, "rate limited", { "retry-after": "1" }), json(healthWire));
      const started = Date.now();
      await client().health();
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.requests).toHaveLength(2);
    });

    it("honours Retry-After as an HTTP date, and caps any wait at maxDelayMs", async () => {
      const inOneSecond = new Date(Date.now() + 1_500).toUTCString();
      server.on("GET", "/_health", text(503, "maintenance", { "retry-after": inOneSecond }), json(healthWire));
      const started = Date.now();
      await client().health();
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);

      server.on("GET", "/_health", text(429, "later", { "retry-after": "3600" }), json(healthWire));
      const capped = Date.now();
      await client({ retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 30, random: () => 0 } }).health();
      expect(Date.now() - capped).toBeLessThan(1_000);
    });

    it("waits with full jitter between attempts (random injected)", async () => {
      server.on("GET", "/_health", text(500, "oops"), text(500, "oops"), json(healthWire));
      const started = Date.now();
      await client({ retry: { retries: 2, baseDelayMs: 200, maxDelayMs: 2_000, random: () => 0.999 } }).health();
      // 0.999 * 200 + 0.999 * 400
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    });

    it("gives up after the configured retries with the last error", async () => {
      server.on("GET", "/_health", ...repeat(4, json({ name: "TooManyRequests", message: "slow down", status_code: 429 }, 429, { "retry-after": "0" })));
      const error = await caught(client().health());
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ status: 429, attempts: 4, retryAfterMs: 0, method: "GET", path: "/_health" });
      expect(server.requests).toHaveLength(4);

      server.on("GET", "/accounts", ...repeat(2, text(503, "")));
      const unavailable = await caught(client({ retry: { retries: 1, baseDelayMs: 1, random: () => 0 } }).listAccounts());
      expect(unavailable).toBeInstanceOf(CustodyApiError);
      expect(unavailable).toMatchObject({ status: 503, attempts: 2 });
    });

    it("retries dropped connections and timeouts, then raises NetworkError / TimeoutError", async () => {
      server.on("GET", "/accounts/7", { kind: "drop" }, { kind: "drop-mid-body" }, json(polkadotAccountWire));
      expect((await client().getAccount(7)).id).toBe(7);

      server.on("GET", "/_health", ...repeat(3, { kind: "drop" }));
      const dropped = await caught(client({ retry: { retries: 2, baseDelayMs: 1, random: () => 0 } }).health());
      expect(dropped).toBeInstanceOf(NetworkError);
      expect(dropped).toMatchObject({ attempts: 3, code: droppedCode });

      server.on("GET", "/transactions/1", ...repeat(2, { kind: "delay", ms: 400, then: json(transactionWire()) }));
      const slow = await caught(client({ timeoutMs: 60, retry: { retries: 1, baseDelayMs: 1, random: () => 0 } }).getTransaction(1));
      expect(slow).toBeInstanceOf(TimeoutError);
      expect(slow).toMatchObject({ attempts: 2, timeoutMs: 60 });
    });

    it("a per-call timeout overrides the client's", async () => {
      server.on("GET", "/_health", { kind: "delay", ms: 300, then: json(healthWire) });
      const error = await caught(client({ retry: { retries: 0 } }).health({ timeoutMs: 50 }));
      expect(error).toBeInstanceOf(TimeoutError);
      await expect(client().health({ timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    });

    it("does not retry a 4xx, nor a success whose body is unreadable", async () => {
      server.on("GET", "/accounts/9", json({ name: "NotFound", message: "no account 9", status_code: 404 }, 404));
      const missing = await caught(client().getAccount(9));
      expect(missing).toBeInstanceOf(CustodyApiError);
      expect(missing).toMatchObject({ status: 404, body: { name: "NotFound", message: "no account 9", status_code: 404 } });
      server.on("GET", "/accounts/7", text(200, "{not json"));
      await expect(client().getAccount(7)).rejects.toBeInstanceOf(ResponseValidationError);
      expect(server.requests).toHaveLength(2);
    });
  });

  describe("POST is never retried", () => {
    it.each([
      ["503", text(503, "Service Unavailable"), "status"],
      ["502 with an error body", json({ name: "BadGateway", message: "upstream", status_code: 502 }, 502), "status"],
      ["500 without an error body", text(500, "Internal Server Error"), "status"],
      ["a dropped connection", { kind: "drop" } as Scripted, "network"],
      ["a connection dropped mid-answer", { kind: "drop-mid-body", status: 201 } as Scripted, "network"],
      ["a timeout", { kind: "delay", ms: 500, then: json(transactionWire()) } as Scripted, "timeout"],
    ])("on %s: one attempt, AmbiguousWriteError carrying the body", async (_label, answer, reason) => {
      server.on("POST", "/transactions", answer, json(transactionWire()));
      const body = sendBody();
      // Only the timeout's row times out: under load a dropped connection may take longer than 100 ms to be seen, and is not a timeout.
      const error = await caught(client(reason === "timeout" ? { timeoutMs: 100 } : {}).createTransaction(body));
      expect(error).toBeInstanceOf(AmbiguousWriteError);
      expect(error).toMatchObject({ method: "POST", path: "/transactions", reason, requestBody: body, requestBodyText: stringifyJsonExact(body) });
      expect((error as Error).message).toMatch(/outcome unknown.*never retries a POST/);
      expect(server.requests).toHaveLength(1);
    });

    it("a 500 with an error body is a failure that still tells to check the outcome", async () => {
      server.on("POST", "/transactions", json({ name: "InternalError", message: "signing failed", status_code: 500 }, 500));
      const error = await caught(client().createTransaction(sendBody()));
      expect(error).toBeInstanceOf(CustodyApiError);
      expect(error).not.toBeInstanceOf(AmbiguousWriteError);
      expect(error).toMatchObject({ status: 500, checkBeforeRetry: true });
      expect((error as Error).message).toMatch(/check the outcome/);
      expect(server.requests).toHaveLength(1);
    });

    it("a 429 on a POST is a definite refusal, raised at once", async () => {
      server.on("POST", "/solana/accounts/3/stakes", text(429, "slow down", { "retry-after": "2" }));
      const error = await caught(client().createSolanaStake(3, buildCreateSolanaStakeRequest({ amount: 5_000_000_000n, validator: SOLANA_VALIDATOR })));
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ retryAfterMs: 2_000, attempts: 1 });
      expect(server.requests).toHaveLength(1);
    });

    it("a refused connection means nothing was sent: NetworkError, not ambiguous", async () => {
      const closed = await ScriptedServer.start();
      const baseUrl = closed.baseUrl;
      await closed.close();
      const error = await caught(client({ baseUrl }).createTransaction(sendBody()));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: "ECONNREFUSED", attempts: 1 });
      expect((error as Error).message).toMatch(/not sent, nothing was written/);
    });

    it("a 2xx whose body does not match says the write was accepted", async () => {
      server.on("POST", "/transactions", json({ ...transactionWire(), amount: "1.5" }, 201));
      const error = await caught(client().createTransaction(sendBody()));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as Error).message).toMatch(/amount: must be a non-negative whole number of base units.*The write was accepted \(HTTP 201\)/);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe("abort signal", () => {
    it("cancels a GET in flight with the signal's reason", async () => {
      server.on("GET", "/_health", { kind: "delay", ms: 2_000, then: json(healthWire) });
      const controller = new AbortController();
      const reason = new Error("operator cancelled");
      void server.receivedCount(1).then(() => controller.abort(reason));
      const started = Date.now();
      await expect(client().health({ signal: controller.signal })).rejects.toBe(reason);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it("cancels the backoff wait between retries", async () => {
      server.on("GET", "/_health", text(503, "later", { "retry-after": "30" }), json(healthWire));
      const controller = new AbortController();
      // Once the first answer (503, retry after 30 s) was asked for: the client then waits, and the abort ends the wait.
      void server.receivedCount(1).then(() => controller.abort());
      const started = Date.now();
      const error = await caught(client({ retry: { retries: 3, maxDelayMs: 30_000 } }).health({ signal: controller.signal }));
      expect((error as Error).name).toBe("AbortError");
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(server.requests).toHaveLength(1);
    });

    it("an aborted signal sends nothing; an abort after a POST left is an ambiguous write", async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(client().createTransaction(sendBody(), { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
      expect(server.requests).toHaveLength(0);

      server.on("POST", "/transactions", { kind: "delay", ms: 2_000, then: json(transactionWire()) });
      const late = new AbortController();
      // Once the service has the POST: it has left, whatever happens to its answer.
      void server.receivedCount(1).then(() => late.abort());
      const error = await caught(client().createTransaction(sendBody(), { signal: late.signal }));
      expect(error).toBeInstanceOf(AmbiguousWriteError);
      expect(error).toMatchObject({ reason: "aborted" });
      expect(server.requests).toHaveLength(1);
    });
  });

  describe("errors", () => {
    it("400 naming the unknown operator raises UnknownOperatorError with the exact message", async () => {
      server.on("GET", "/_health", json({ name: UNKNOWN_OPERATOR_ERROR_NAME, message: "User ghost-bot is not known", status_code: 400 }, 400));
      const error = await caught(client({ operator: "ghost-bot" }).health());
      expect(error).toBeInstanceOf(UnknownOperatorError);
      expect(error).toBeInstanceOf(CustodyApiError);
      expect((error as Error).message).toBe('the module does not know the operator "ghost-bot" (X-Vendor-API-User); create and register it first');
      expect(server.requests).toHaveLength(1);
    });

    it("recognises the unknown operator from the message too, and not other 400s", async () => {
      server.on("POST", "/transactions", text(400, "Unknown API user: ghost-bot"));
      await expect(client().createTransaction(sendBody())).rejects.toBeInstanceOf(UnknownOperatorError);
      server.on("POST", "/transactions", json({ name: "ValidationError", message: "amount exceeds the available balance", status_code: 400 }, 400));
      const error = await caught(client().createTransaction(sendBody()));
      expect(error).toBeInstanceOf(CustodyApiError);
      expect(error).not.toBeInstanceOf(UnknownOperatorError);
      expect((error as Error).message).toBe(
        'POST /transactions answered HTTP 400: <untrusted field="error_body">ValidationError: amount exceeds the available balance</untrusted>',
      );
    });

    it("names the method, the path and each failing field of a response that does not match", async () => {
      const coinFields = polkadotAccountWire.coin_fields as PolkadotCoinFieldsWire;
      const broken = { ...polkadotAccountWire, coin_fields: { ...coinFields, balances: { ...coinFields.balances, total: -1 } } };
      server.on("GET", "/accounts/7", json(broken));
      const error = await caught(client().getAccount(7));
      expect(error).toBeInstanceOf(ResponseValidationError);
      const validation = error as ResponseValidationError;
      expect(validation.message).toMatch(/^GET \/accounts\/7: the response does not match/);
      expect(validation.issues.map((issue) => issue.path)).toEqual(["coin_fields", "coin_fields.balances.total"]);
      expect(validation.message).toMatch(/coin_fields\.balances\.total: must be a non-negative whole number of base units .*got -1/);
      server.on("GET", "/transactions/5", json({ ...transactionWire(), max_fees: "1e3", status: "LOST" }));
      const second = (await caught(client().getTransaction(5))) as ResponseValidationError;
      expect(second.issues.map((issue) => issue.path)).toEqual(["max_fees", "status"]);
      expect(second.message).toMatch(/max_fees: must be a non-negative whole number of base units/);
    });

    it("keeps a long non-JSON error body trimmed", async () => {
      server.on("GET", "/accounts/7", text(404, `${"x".repeat(5_000)}`));
      const error = (await caught(client().getAccount(7))) as CustodyApiError;
      expect(typeof error.body).toBe("string");
      expect((error.body as string).length).toBeLessThan(600);
    });

    it("does not follow redirects", async () => {
      server.on("GET", "/_health", text(302, "", { location: "http://elsewhere.invalid/_health" }));
      const error = await caught(client().health());
      expect(error).toBeInstanceOf(CustodyApiError);
      expect((error as Error).message).toMatch(
        /redirect \(HTTP 302 to <untrusted field="location">http:\/\/elsewhere.invalid\/_health<\/untrusted>\).*check baseUrl/,
      );
      expect(server.requests).toHaveLength(1);
    });

    it("refuses an invalid body before sending it", async () => {
      const bad = { amount: -5n, validator: SOLANA_VALIDATOR };
      const error = await caught(client().createSolanaStake(3, bad));
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toMatch(/POST \/solana\/accounts\/3\/stakes request body: amount: must be a non-negative whole number/);
      expect(server.requests).toHaveLength(0);
    });

    it("refuses bad client options, naming the field", () => {
      expect(() => new CustodyClient({ baseUrl: server.baseUrl, operator: "treasury bot" })).toThrow(/operator: must contain no space/);
      expect(() => new CustodyClient({ baseUrl: "ftp://host/module", operator: OPERATOR })).toThrow(/baseUrl: must use http or https/);
      expect(() => new CustodyClient({ baseUrl: "http://u:p@host/module", operator: OPERATOR })).toThrow(/baseUrl: must not carry credentials/);
      expect(() => new CustodyClient({ baseUrl: server.baseUrl, operator: OPERATOR, retry: { retries: -1 } })).toThrow(/retry.retries/);
    });
  });
});
