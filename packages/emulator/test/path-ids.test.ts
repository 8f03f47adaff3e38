import { ErrorBody } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./support/harness.js";
import { decode } from "./support/wire.js";

const RULE = /must be a positive integer from 1 to 9007199254740991 \(2\^53-1\) without leading zeros/;

describe("ids in paths and queries: 400 naming the parameter and the rule, or 404 for an id that names nothing", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: "demo" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("a well-formed id that names nothing is 404 saying so, up to 2^53-1 (16 digits)", async () => {
    for (const [path, message] of [
      ["/accounts/1234567890123456", "account 1234567890123456 does not exist"],
      ["/accounts/9007199254740991/balance", "account 9007199254740991 does not exist"],
      ["/transactions/9007199254740991", "transaction 9007199254740991 does not exist"],
      ["/transactions/1234567890123456/history", "transaction 1234567890123456 does not exist"],
    ] as const) {
      const answer = await h.api("treasury-bot").get(path);
      expect(answer.status, path).toBe(404);
      expect(decode(ErrorBody, answer)).toEqual({ name: "NotFound", status_code: 404, message });
    }
  });

  it("an id that is not a positive integer up to 2^53-1 is 400 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["/accounts/9007199254740992", "account_id"],
      ["/accounts/12345678901234567", "account_id"],
      ["/accounts/0", "account_id"],
      ["/accounts/007", "account_id"],
      ["/accounts/abc", "account_id"],
      ["/accounts/-1/sync", "account_id"],
      ["/transactions/1.5", "transaction_id"],
      ["/transactions/99999999999999999999/history", "transaction_id"],
      ["/requests/9007199254740993/status", "request_id"],
      ["/solana/accounts/1e3/stakes", "account_id"],
      ["/ethereum/accounts/18446744073709551616/stakes", "account_id"],
      ["/transactions?account_id=9007199254740992", "account_id"],
      ["/transactions?account_id=0", "account_id"],
    ];
    for (const [path, parameter] of cases) {
      const answer = await h.api("treasury-bot").get(path);
      expect(answer.status, path).toBe(400);
      const body = decode(ErrorBody, answer);
      expect(body.name, path).toBe("InvalidId");
      expect(body.message.startsWith(`${parameter}: `), `${path}: ${body.message}`).toBe(true);
      expect(body.message, path).toMatch(RULE);
    }
  });

  it("the control plane follows the same rule", async () => {
    const unknown = await h.control.post("/accounts/9007199254740991/deposit", { amount: "1" });
    expect(unknown.status).toBe(404);
    expect(decode(ErrorBody, unknown).message).toBe("account 9007199254740991 does not exist");
    const malformed = await h.control.post("/transactions/12345678901234567/approve", { username: "dana.approver" });
    expect(malformed.status).toBe(400);
    expect(decode(ErrorBody, malformed).message).toMatch(/^transaction_id: /);
  });
});
