import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { verifyAuditLog } from "@custody/shared";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, transactionsWithLabel } from "./harness/demo-workspace.js";
import { passedCodes, requestOf } from "./harness/guarded-write.js";
import { call, connectHarness, startTestEmulator, type Harness } from "./harness/mcp-harness.js";

let emulator: RunningEmulator;
let harness: Harness;
let recipient: string;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  await resetWorkspace(emulator);
  harness = await connectHarness(emulator);
  recipient = (await accountNamed(emulator, DEMO.solCold)).address;
});
afterEach(async () => {
  await harness.close();
});

const send = (overrides: Record<string, unknown> = {}) => ({
  account: DEMO.solTreasury,
  recipient,
  amount: "1.5",
  unit: "SOL",
  note: "guard test",
  ...overrides,
});

describe("dry run", () => {
  it("sends nothing and answers the exact body, the checks, both units, governance and a token", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    expect(dry.isError).toBe(false);
    expect(dry.structured.status).toBe("dry_run");
    const reference = dry.structured.reference as string;
    expect(reference).toMatch(/^cw-[0-9a-f]{20}$/);
    expect(requestOf(dry)).toEqual({
      method: "POST",
      path: "/transactions",
      body: {
        account_name: DEMO.solTreasury,
        amount: { value: "1500000000", unit: "lamport" },
        max_fees: { value: "7500", unit: "lamport" },
        recipient,
        speed: "NORMAL",
        coin_fields: { type: "SEND" },
        note: { title: "guard test", content: `[ref ${reference}]` },
      },
    });
    expect((dry.structured.amounts as Record<string, unknown>).amount).toEqual({ base_units: "1500000000", display: "1.5", unit: "SOL" });
    expect(passedCodes(dry)).toEqual(expect.arrayContaining(["MAX_FEES_PROPOSED", "SEND_BALANCE_OK", "GOVERNANCE_APPROVED_AT_ONCE"]));
    expect(dry.structured.checks).toBeUndefined();
    expect((dry.structured.governance as { outcome: string }).outcome).toBe("approved_at_once");
    expect(dry.token).toMatch(/^v2\.[0-9a-f]{32}\./);
    expect(Date.parse(dry.structured.expires_at as string) - harness.clock.now().getTime()).toBe(5 * 60 * 1000);
    expect(dry.text).toContain("DRY RUN, nothing sent");
    // A client that gives the model only the text can still confirm.
    expect(dry.text).toContain(`confirmation_token "${dry.token as string}"`);
    expect(await transactionsWithLabel(emulator, reference)).toEqual([]);
  });

  it("accepts base units with the base unit code, the same request as the display unit", async () => {
    const display = await call(harness.client, "create_transaction", send());
    const base = await call(harness.client, "create_transaction", send({ amount: "1500000000", unit: "lamport" }));
    expect((requestOf(base).body as { amount: unknown }).amount).toEqual((requestOf(display).body as { amount: unknown }).amount);
  });

  it("blocks with the failing checks and no token when the amount exceeds the available balance", async () => {
    const dry = await call(harness.client, "create_transaction", send({ amount: "1000000", unit: "SOL" }));
    expect(dry.isError).toBe(true);
    expect(dry.structured.status).toBe("blocked");
    expect(dry.token).toBeUndefined();
    expect(dry.structured.checks).toEqual(expect.arrayContaining([expect.objectContaining({ code: "SEND_EXCEEDS_AVAILABLE", severity: "block" })]));
    expect(dry.text).toContain("BLOCKED");
  });

  it("refuses an amount with more decimals than the unit allows, naming the field and the rule", async () => {
    const dry = await call(harness.client, "create_transaction", send({ amount: "1.0000000001" }));
    expect(dry.isError).toBe(true);
    expect(dry.structured.status).toBe("failed");
    expect(dry.structured.error).toMatch(/^amount: .*at most 9 decimal places/);
  });

  it("refuses a unit that is not one of the account's currency", async () => {
    const dry = await call(harness.client, "create_transaction", send({ unit: "DOT" }));
    expect(dry.structured.error).toMatch(/^unit: unit "DOT" is not a unit of solana_testnet/);
  });

  it("names the account when it does not exist", async () => {
    const dry = await call(harness.client, "create_transaction", send({ account: "sol-treasure" }));
    expect(dry.structured.error).toMatch(/^account: no account is named "sol-treasure"/);
  });

  it("refuses max_fees without its unit", async () => {
    const dry = await call(harness.client, "create_transaction", send({ max_fees: "10000" }));
    expect(dry.structured.error).toMatch(/^max_fees_unit: required with max_fees/);
  });
});

describe("confirm", () => {
  it("submits once with the same arguments and the token, rebuilding the dry run's request exactly", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    const reference = dry.structured.reference as string;
    const confirmed = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(confirmed.isError).toBe(false);
    expect(confirmed.structured.status).toBe("submitted");
    // The submission refers to its dry run by reference rather than repeating it.
    expect(confirmed.structured.reference).toBe(reference);
    expect(confirmed.text).toContain(`SUBMITTED (the dry run ${reference})`);
    const transaction = confirmed.structured.transaction as { id: number; amount: unknown; status: string };
    expect(transaction.amount).toEqual({ base_units: "1500000000", display: "1.5", unit: "SOL" });
    const recorded = await directClient(emulator).getTransaction(transaction.id);
    expect(recorded.max_fees).toBe(7500n);
    expect(await transactionsWithLabel(emulator, reference)).toEqual([transaction.id]);
  });

  it("refuses a token for other arguments and sends nothing", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    const other = await call(harness.client, "create_transaction", send({ amount: "1.6", confirmation_token: dry.token }));
    expect(other.isError).toBe(true);
    expect(other.structured.status).toBe("refused");
    expect(other.structured.error).toContain("the request differs from the dry run");
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("refuses an expired token", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    harness.clock.advance(5 * 60 * 1000);
    const late = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(late.structured.status).toBe("refused");
    expect(late.structured.error).toMatch(/^confirmation_token: the dry run expired at/);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("refuses a reused token: one confirmation creates one transaction", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    const first = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(first.structured.status).toBe("submitted");
    const again = await call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
    expect(again.structured.status).toBe("refused");
    expect(again.structured.error).toMatch(/already used/);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
  });

  it("lets only one of two concurrent confirmations through", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    const args = send({ confirmation_token: dry.token });
    const results = await Promise.all([call(harness.client, "create_transaction", args), call(harness.client, "create_transaction", args)]);
    expect(results.map((result) => result.structured.status).sort()).toEqual(["refused", "submitted"]);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
  });

  it("refuses a forged token: altered claims, or signed by another server process", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    const [prefix, nonce, mac] = (dry.token as string).split(".") as [string, string, string];
    const altered = `${prefix}.${nonce.startsWith("0") ? "1" : "0"}${nonce.slice(1)}.${mac}`;
    const forged = await call(harness.client, "create_transaction", send({ confirmation_token: altered }));
    expect(forged.structured.status).toBe("refused");
    expect(forged.structured.reason).toBe("forged");
    expect(forged.structured.error).toMatch(/signature does not match/);

    const elsewhere = await connectHarness(emulator);
    const foreign = await call(elsewhere.client, "create_transaction", send());
    await elsewhere.close();
    const crossed = await call(harness.client, "create_transaction", send({ confirmation_token: foreign.token }));
    expect(crossed.structured).toMatchObject({ status: "refused", reason: "forged" });
    expect(crossed.structured.error).toMatch(/signature does not match/);

    const garbage = await call(harness.client, "create_transaction", send({ confirmation_token: "not-a-token" }));
    expect(garbage.structured).toMatchObject({ status: "refused", reason: "malformed" });
    expect(garbage.structured.error).toMatch(/malformed/);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("refuses a token with junk appended (base64url decoding ignores it): one token has one spelling", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    for (const junk of ["=", "!"]) {
      const padded = await call(harness.client, "create_transaction", send({ confirmation_token: `${dry.token as string}${junk}` }));
      expect(padded.structured.status).toBe("refused");
      expect(padded.structured.error).toMatch(/malformed/);
    }
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("refuses a token issued to another operator, even under the same key", async () => {
    const secret = randomBytes(32);
    const treasury = await connectHarness(emulator, { operator: DEMO.treasuryBot, tokenSecret: secret });
    const staking = await connectHarness(emulator, { operator: DEMO.stakingBot, tokenSecret: secret });
    try {
      const dry = await call(treasury.client, "create_transaction", send());
      const stolen = await call(staking.client, "create_transaction", send({ confirmation_token: dry.token }));
      expect(stolen.structured.status).toBe("refused");
      expect(stolen.structured.error).toMatch(
        /signature does not match \(altered, issued for another tool, operator or person than create_transaction as staking-bot/,
      );
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
    } finally {
      await treasury.close();
      await staking.close();
    }
  });

  it("refuses a token of another tool", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    const other = await call(harness.client, "polkadot_unbond", { account: DEMO.dotStaking, amount: "1", unit: "DOT", confirmation_token: dry.token });
    expect(other.structured.status).toBe("refused");
    expect(other.structured.error).toMatch(
      /signature does not match \(altered, issued for another tool, operator or person than polkadot_unbond as treasury-bot/,
    );
  });

  it("re-runs the checks on fresh data and blocks when the balance moved since the dry run", async () => {
    const account = await accountNamed(emulator, DEMO.solTreasury);
    const almostAll = account.available_balance - 1_000_000n;
    const args = send({ amount: almostAll.toString(), unit: "lamport", max_fees: "10000", max_fees_unit: "lamport" });
    const dry = await call(harness.client, "create_transaction", args);
    expect(dry.structured.status).toBe("dry_run");
    const other = await connectHarness(emulator);
    const spend = await call(other.client, "create_transaction", send({ amount: "2", note: "meanwhile" }));
    await call(other.client, "create_transaction", send({ amount: "2", note: "meanwhile", confirmation_token: spend.token }));
    await other.close();
    const confirmed = await call(harness.client, "create_transaction", { ...args, confirmation_token: dry.token });
    expect(confirmed.structured.status).toBe("blocked");
    expect(confirmed.text).toContain("re-check on fresh data");
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });
});

describe("human in the loop", () => {
  const withElicitation = async (
    answer: (message: string) => { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> },
  ) => {
    const shown: string[] = [];
    const asked = await connectHarness(emulator, {
      elicit: (message) => {
        shown.push(message);
        return answer(message);
      },
    });
    const dry = await call(asked.client, "create_transaction", send());
    const result = await call(asked.client, "create_transaction", send({ confirmation_token: dry.token }));
    await asked.close();
    return { result, shown, reference: dry.structured.reference as string, auditPath: asked.auditPath };
  };

  it("submits when the person accepts, after showing them the summary", async () => {
    const { result, shown, reference } = await withElicitation(() => ({ action: "accept", content: { confirm: true } }));
    expect(result.structured.status).toBe("submitted");
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain("send 1.5 SOL (1500000000 lamport) from sol-treasury");
    expect(shown[0]).toContain("as operator treasury-bot");
    expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
  });

  for (const [label, reply] of [
    ["declines", { action: "decline" }],
    ["cancels", { action: "cancel" }],
    ["accepts without ticking confirm", { action: "accept", content: { confirm: false } }],
  ] as const) {
    it(`sends nothing when the person ${label}, and audits it as declined`, async () => {
      const { result, reference, auditPath } = await withElicitation(() => reply);
      expect(result.isError).toBe(true);
      expect(result.structured.status).toBe("declined");
      expect(result.text).toContain("nothing was sent");
      expect(await transactionsWithLabel(emulator, reference)).toEqual([]);
      const events = readFileSync(auditPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).event);
      expect(events).toEqual(["sealed", "dry_run", "declined"]);
    });
  }
});

describe("never twice", () => {
  it("looks the write up after a lost answer and reports the one transaction, without re-sending", async () => {
    const dry = await call(harness.client, "create_transaction", send({ max_fees: "7500", max_fees_unit: "lamport" }));
    await control(emulator, "PUT", "/faults", { drop_after_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    const confirmed = await call(harness.client, "create_transaction", send({ max_fees: "7500", max_fees_unit: "lamport", confirmation_token: dry.token }));
    expect(confirmed.structured.status).toBe("submitted");
    expect(confirmed.text).toContain("was not sent again");
    const ids = await transactionsWithLabel(emulator, dry.structured.reference as string);
    expect(ids).toEqual([(confirmed.structured.transaction as { id: number }).id]);
    const events = readFileSync(harness.auditPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).event);
    expect(events).toEqual(["sealed", "dry_run", "confirmed", "reserved", "ambiguous", "submitted"]);
  });

  it("reports a request lost before it was handled as uncertain (it may still land), and sends nothing again", async () => {
    const dry = await call(harness.client, "create_transaction", send({ max_fees: "7500", max_fees_unit: "lamport" }));
    await control(emulator, "PUT", "/faults", { drop_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    const confirmed = await call(harness.client, "create_transaction", send({ max_fees: "7500", max_fees_unit: "lamport", confirmation_token: dry.token }));
    expect(confirmed.isError).toBe(true);
    expect(confirmed.structured.status).toBe("uncertain");
    expect(confirmed.structured.error).toContain("Nothing was re-sent");
    // What may have moved is named as in the dry run: the account, the amount in both units, the recipient.
    expect(confirmed.text).toMatch(/^UNCERTAIN, it may already be applied: /);
    for (const fact of ["1.5 SOL (1500000000 lamport)", "Recipient: ", recipient]) expect(confirmed.text).toContain(fact);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });
});

describe("audit log", () => {
  it("records every write call in a valid chain, with the committed amount, and never the token", async () => {
    const blocked = await call(harness.client, "create_transaction", send({ amount: "1000000" }));
    expect(blocked.structured.status).toBe("blocked");
    const dry = await call(harness.client, "create_transaction", send());
    const token = dry.token as string;
    await call(harness.client, "create_transaction", send({ amount: "2", confirmation_token: token }));
    const dry2 = await call(harness.client, "create_transaction", send());
    const confirmed = await call(harness.client, "create_transaction", send({ confirmation_token: dry2.token }));
    const text = readFileSync(harness.auditPath, "utf8");
    expect(text).not.toContain(token);
    expect(text).not.toContain(dry2.token as string);
    const records = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.event)).toEqual(["sealed", "blocked", "dry_run", "refused", "dry_run", "confirmed", "reserved", "submitted"]);
    // What the daily limits count is what the write commits: the amount and its max_fees (1.5 SOL + 7500 lamports).
    expect(records.at(-2)).toMatchObject({
      event: "reserved",
      details: { currency: "solana_testnet", policy_amount: "1500007500", reference: dry2.structured.reference },
    });
    const submitted = records.at(-1);
    expect(submitted).toMatchObject({
      surface: "mcp",
      operator: DEMO.treasuryBot,
      tool: "create_transaction",
      transaction_id: (confirmed.structured.transaction as { id: number }).id,
      details: { currency: "solana_testnet", policy_amount: "1500007500" },
    });
    expect(submitted.request).toMatchObject({ kind: "send", amount: "1500000000", max_fees: "7500" });
    expect(verifyAuditLog(harness.auditPath)).toMatchObject({ ok: true, records: 8 });
  });

  it("sends nothing when the audit log cannot be written before the POST", async () => {
    rmSync(harness.auditPath, { force: true });
    mkdirSync(harness.auditPath);
    const dry = await call(harness.client, "create_transaction", send());
    expect(dry.isError).toBe(true);
    expect(dry.structured.status).toBe("failed");
    expect(dry.structured.error).toMatch(/Nothing was sent\.$/);
  });

  it("sends nothing when the audit log cannot take the reservation made just before the POST", async () => {
    let auditPath = "";
    const asked = await connectHarness(emulator, {
      elicit: () => {
        rmSync(auditPath);
        mkdirSync(auditPath);
        return { action: "accept", content: { confirm: true } };
      },
    });
    auditPath = asked.auditPath;
    const dry = await call(asked.client, "create_transaction", send());
    const confirmed = await call(asked.client, "create_transaction", send({ confirmation_token: dry.token }));
    await asked.close();
    expect(confirmed.structured.status).toBe("failed");
    expect(confirmed.structured.error).toMatch(/Nothing was sent\.$/);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
  });

  it("still reports a write that happened when the audit log fails after the POST, with a warning", async () => {
    const dry = await call(harness.client, "create_transaction", send());
    await control(emulator, "PUT", "/faults", { latency_ms: 500, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    const confirming = call(harness.client, "create_transaction", send({ confirmation_token: dry.token }));
    // The reservation is the last line before the POST: break the log once it is written, while the POST is under way.
    while (!readFileSync(harness.auditPath, "utf8").includes('"event":"reserved"')) await new Promise((resolve) => setTimeout(resolve, 5));
    rmSync(harness.auditPath);
    mkdirSync(harness.auditPath);
    const confirmed = await confirming;
    expect(confirmed.isError).toBe(false);
    expect(confirmed.structured.status).toBe("submitted");
    expect(confirmed.structured.warning).toMatch(/^the audit log could not be written/);
    expect(confirmed.text).toContain("WARNING: the audit log could not be written");
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
  });
});

it("leaves the workspace as the client found it after dry runs alone", async () => {
  const before = (await directClient(emulator).searchTransactions({ page: 1, page_size: 1 })).page_info.count;
  for (let index = 0; index < 3; index += 1) await call(harness.client, "create_transaction", send());
  expect((await directClient(emulator).searchTransactions({ page: 1, page_size: 1 })).page_info.count).toBe(before);
});
