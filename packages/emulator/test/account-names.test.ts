import { Account, ErrorBody } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { createAccount, expectStatus, governance, operatorsRule, registerOperator, startHarness, type Harness } from "./support/harness.js";
import { decode } from "./support/wire.js";

const OP = "names-bot";
const SOL = 1_000_000_000n;

describe("account names: unique by default, shared only when the control plane allows it, never guessed", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await registerOperator(h, OP);
    await createAccount(h, "treasury", "solana_testnet", 10n * SOL, governance(operatorsRule(OP)));
  });
  afterAll(async () => {
    await h.close();
  });

  const send = (accountName: string) => ({ account_name: accountName, amount: "1000", max_fees: "7500", recipient: externalSolana("names"), speed: "NORMAL" });

  it("a second account with a name in use is refused unless allow_duplicate_name is set; then a request by that name is 409", async () => {
    const rule = governance(operatorsRule(OP));
    const refused = await h.control.post("/accounts", { name: "treasury", currency: "solana_testnet", governance: rule });
    expect(refused.status).toBe(409);
    expect(decode(ErrorBody, refused).message).toBe('name: an account named "treasury" exists already');
    const twin = decode(
      Account,
      expectStatus(
        await h.control.post("/accounts", {
          name: "treasury",
          currency: "solana_testnet",
          governance: rule,
          balance: "1000000000",
          allow_duplicate_name: true,
        }),
        200,
      ),
    );
    const ambiguous = await h.api(OP).post("/transactions", send("treasury"));
    expect(ambiguous.status).toBe(409);
    const body = decode(ErrorBody, ambiguous);
    expect(body.name).toBe("AmbiguousAccountName");
    expect(body.message).toMatch(/^account_name: 2 accounts are named "treasury" \(ids \d+, \d+\); the name does not say which$/);
    expect(
      (await h.api(OP).post("/transactions/fees", { account_name: "treasury", amount: "1000", recipient: externalSolana("names"), speed: "NORMAL" })).status,
    ).toBe(409);

    const renamed = decode(Account, expectStatus(await h.control.put(`/accounts/${twin.id}/name`, { name: "treasury-2" }), 200));
    expect(renamed.name).toBe("treasury-2");
    expectStatus(await h.api(OP).post("/transactions", send("treasury")), 200);
    expectStatus(await h.api(OP).post("/transactions", send("treasury-2")), 200);
  });

  it("a rename to a name in use is refused unless allowed; the old name then names nothing", async () => {
    const rule = governance(operatorsRule(OP));
    const other = decode(
      Account,
      expectStatus(await h.control.post("/accounts", { name: "ops", currency: "solana_testnet", governance: rule, balance: "1000000000" }), 200),
    );
    const refused = await h.control.put(`/accounts/${other.id}/name`, { name: "treasury" });
    expect(refused.status).toBe(409);
    expect(decode(ErrorBody, refused).message).toMatch(/^name: account \d+ is named "treasury" already$/);
    expectStatus(await h.control.put(`/accounts/${other.id}/name`, { name: "ops-renamed" }), 200);
    const gone = await h.api(OP).post("/transactions", send("ops"));
    expect(gone.status).toBe(404);
    expect(decode(ErrorBody, gone).message).toBe('account_name: no account is named "ops"');
    expectStatus(await h.api(OP).post("/transactions", send("ops-renamed")), 200);
  });
});
