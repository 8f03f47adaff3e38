import type { RunningEmulator } from "@custody/emulator";
import { ConfirmationTokens } from "@custody/mcp-server";
import { CustodyClient } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, openMcpSession, startQuietEmulator, transactionCount, type McpSession, type ToolAnswer } from "./support/mcp-workspace.js";
import { recordFigures } from "./support/reliability-figures.js";

// Attempts to get a write past the guard: each must be refused (or blocked before any token is
// issued), and none may change the workspace.

let emulator: RunningEmulator;
const tokens = new ConfirmationTokens();
let treasury: McpSession;
let staking: McpSession;
let otherProcess: McpSession;
const addresses = new Map<string, string>();
const ids = new Map<string, number>();
const tried: { case: string; status: string | undefined; reason: string }[] = [];

beforeAll(async () => {
  emulator = await startQuietEmulator();
  // One server process serving two operators' sessions (one token issuer), and a second process (its own secret).
  treasury = await openMcpSession(emulator, { operator: "treasury-bot", tokens });
  staking = await openMcpSession(emulator, { operator: "staking-bot", tokens });
  otherProcess = await openMcpSession(emulator, { operator: "treasury-bot" });
  for (const account of await new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" }).listAllAccounts()) {
    addresses.set(account.name, account.address);
    ids.set(account.name, account.id);
  }
});

afterAll(async () => {
  for (const session of [treasury, staking, otherProcess]) await session?.close();
  await emulator?.close();
  const refused = tried.filter((item) => item.status === "refused" || item.status === "blocked" || item.status === "failed");
  recordFigures("policy-bypass", { cases: tried.length, refused: refused.length, notRefused: tried.filter((item) => !refused.includes(item)), tried });
});

function address(name: string): string {
  const found = addresses.get(name);
  if (!found) throw new Error(`no demo account ${name}`);
  return found;
}

async function dryRun(session: McpSession, tool: string, args: Record<string, unknown>): Promise<{ token: string; answer: ToolAnswer }> {
  const answer = await callTool(session.client, tool, args);
  expect(answer.structured.status, answer.text).toBe("dry_run");
  return { token: String(answer.token), answer };
}

/**
 * A confirmation that must be refused, changing nothing in the workspace: refused by the token
 * check, or failed or blocked while re-planning (the token is spent either way).
 */
async function expectRefused(name: string, session: McpSession, tool: string, args: Record<string, unknown>, reason: RegExp): Promise<ToolAnswer> {
  const before = await transactionCount(emulator);
  const answer = await callTool(session.client, tool, args);
  tried.push({ case: name, status: answer.structured.status, reason: String(answer.structured.error ?? answer.text).slice(0, 200) });
  expect(answer.isError, answer.text).toBe(true);
  expect(["refused", "failed", "blocked"], answer.text).toContain(answer.structured.status);
  expect(String(answer.structured.error), answer.text).toMatch(reason);
  expect(answer.text).toMatch(/Nothing was sent|run a new dry run/);
  expect(await transactionCount(emulator)).toBe(before);
  return answer;
}

const DIFFERS = /differs from the dry run/;
/** Amount 0 at the confirmation: the request is not the one dry-run (the builder's own refusal is a finding beside it). */
const POSITIVE = DIFFERS;
/** Another account at the confirmation: the account the person saw is bound by its id. */
const OTHER_ACCOUNT = /the dry run was for account \d+, but this confirmation names account \d+/;
/** A Solana address outside the workspace. */
const OUTSIDER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const solSend = () => ({ account: "sol-treasury", recipient: address("sol-cold"), amount: "0.5", unit: "SOL" });

describe("changing the request between the dry run and the confirmation", () => {
  it("refuses amount 0 with other fields changed, and amount 0 alone", async () => {
    const { token } = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused(
      "amount 0, recipient changed",
      treasury,
      "create_transaction",
      { ...solSend(), amount: "0", recipient: OUTSIDER, confirmation_token: token },
      POSITIVE,
    );
    await expectRefused(
      "the same token again, with the dry run's own arguments",
      treasury,
      "create_transaction",
      { ...solSend(), confirmation_token: token },
      /already used/,
    );
    const second = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused("amount 0", treasury, "create_transaction", { ...solSend(), amount: "0", confirmation_token: second.token }, POSITIVE);
    const third = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused(
      "amount 0.000000001 (1 lamport), recipient changed",
      treasury,
      "create_transaction",
      { ...solSend(), amount: "0.000000001", recipient: OUTSIDER, confirmation_token: third.token },
      DIFFERS,
    );
    const zero = await callTool(treasury.client, "create_transaction", { ...solSend(), amount: "0" });
    tried.push({ case: "amount 0 dry run", status: zero.structured.status, reason: zero.text.slice(0, 200) });
    expect(["blocked", "failed"]).toContain(zero.structured.status);
    expect(zero.text).toMatch(/nothing sent|Nothing was sent/);
    expect(zero.token).toBeUndefined();
  });

  it("refuses unit confusion: DOT against planck, ETH against wei, SOL against lamport", async () => {
    const dot = { account: "dot-staking", recipient: address("dot-vault"), amount: "1", unit: "DOT" };
    const dotToken = (await dryRun(treasury, "create_transaction", dot)).token;
    await expectRefused("1 DOT confirmed as 1 planck", treasury, "create_transaction", { ...dot, unit: "planck", confirmation_token: dotToken }, DIFFERS);
    const planck = { ...dot, unit: "planck" };
    const planckToken = (await dryRun(treasury, "create_transaction", planck)).token;
    await expectRefused("1 planck confirmed as 1 DOT", treasury, "create_transaction", { ...planck, unit: "DOT", confirmation_token: planckToken }, DIFFERS);
    const wei = { account: "eth-staking", recipient: address("eth-ops"), amount: "1", unit: "wei" };
    const weiToken = (await dryRun(treasury, "create_transaction", wei)).token;
    await expectRefused("1 wei confirmed as 1 ETH", treasury, "create_transaction", { ...wei, unit: "ETH", confirmation_token: weiToken }, DIFFERS);
    const lamport = { ...solSend(), amount: "500000000", unit: "lamport" };
    const lamportToken = (await dryRun(treasury, "create_transaction", lamport)).token;
    await expectRefused(
      "500000000 lamport confirmed as 500000000 SOL",
      treasury,
      "create_transaction",
      { ...lamport, unit: "SOL", confirmation_token: lamportToken },
      DIFFERS,
    );
  });

  it("shows both units in the dry run, so that 1 planck cannot pass for 1 DOT", async () => {
    const { answer } = await dryRun(treasury, "create_transaction", { account: "dot-staking", recipient: address("dot-vault"), amount: "1", unit: "planck" });
    expect((answer.structured as { amounts?: { amount?: unknown } }).amounts?.amount).toEqual({ base_units: "1", display: "0.0000000001", unit: "DOT" });
    expect(answer.text).toContain("0.0000000001 DOT (1 planck)");
  });

  it("refuses max_fees inflated at the confirmation, given or proposed", async () => {
    const proposed = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused(
      "max_fees added to a proposed cap",
      treasury,
      "create_transaction",
      { ...solSend(), max_fees: "10", max_fees_unit: "SOL", confirmation_token: proposed.token },
      DIFFERS,
    );
    const capped = { ...solSend(), max_fees: "0.0000075", max_fees_unit: "SOL" };
    const given = await dryRun(treasury, "create_transaction", capped);
    await expectRefused(
      "max_fees raised 1000 times",
      treasury,
      "create_transaction",
      { ...capped, max_fees: "0.0075", confirmation_token: given.token },
      DIFFERS,
    );
    const inLamport = { ...solSend(), max_fees: "7500", max_fees_unit: "lamport" };
    const lamportToken = (await dryRun(treasury, "create_transaction", inLamport)).token;
    await expectRefused(
      "max_fees 7500 lamport confirmed as 7500 SOL",
      treasury,
      "create_transaction",
      { ...inLamport, max_fees_unit: "SOL", confirmation_token: lamportToken },
      DIFFERS,
    );
  });

  it("refuses a recipient or an account swapped after the dry run", async () => {
    const first = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused("recipient swapped", treasury, "create_transaction", { ...solSend(), recipient: OUTSIDER, confirmation_token: first.token }, DIFFERS);
    const second = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused(
      "account swapped (sol-cold for sol-treasury)",
      treasury,
      "create_transaction",
      { ...solSend(), account: "sol-cold", recipient: address("sol-treasury"), confirmation_token: second.token },
      OTHER_ACCOUNT,
    );
    const third = await dryRun(treasury, "create_transaction", solSend());
    await expectRefused(
      "account swapped, named by id",
      treasury,
      "create_transaction",
      { ...solSend(), account: String(ids.get("sol-cold")), recipient: address("sol-treasury"), confirmation_token: third.token },
      OTHER_ACCOUNT,
    );
    const unbond = { account: "dot-staking", amount: "1", unit: "DOT" };
    const dotToken = (await dryRun(treasury, "polkadot_unbond", unbond)).token;
    await expectRefused(
      "unbond on another account",
      treasury,
      "polkadot_unbond",
      { ...unbond, account: "dot-vault", confirmation_token: dotToken },
      /differs from the dry run|dry run was for account|not allowed|blocked/,
    );
  });
});

describe("tokens", () => {
  it("refuses a replayed token: one submission, then refusals", async () => {
    const before = await transactionCount(emulator);
    const args = { ...solSend(), amount: "0.000001", note: "replay" };
    const { token } = await dryRun(treasury, "create_transaction", args);
    const first = await callTool(treasury.client, "create_transaction", { ...args, confirmation_token: token });
    expect(first.structured.status).toBe("submitted");
    await expectRefused("token replayed", treasury, "create_transaction", { ...args, confirmation_token: token }, /already used/);
    // The same send again is a duplicate of the one just submitted: blocked at the dry run, naming it.
    const again = await callTool(treasury.client, "create_transaction", args);
    tried.push({ case: "the same send dry-run again after it was submitted", status: again.structured.status, reason: again.text.slice(0, 200) });
    expect(again.structured.status, again.text).toBe("blocked");
    expect(again.text).toContain(`DUPLICATE_OF_RECENT`);
    expect(again.text).toContain(`transaction ${(first.structured.transaction as { id: number }).id}`);
    const raced = { ...args, amount: "0.000002" };
    const concurrent = await dryRun(treasury, "create_transaction", raced);
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => callTool(treasury.client, "create_transaction", { ...raced, confirmation_token: concurrent.token })),
    );
    tried.push({ case: "token raced 5 times at once", status: racing.map((answer) => answer.structured.status).join(","), reason: "" });
    expect(racing.filter((answer) => answer.structured.status === "submitted")).toHaveLength(1);
    expect(racing.filter((answer) => answer.structured.status === "refused")).toHaveLength(4);
    expect(await transactionCount(emulator)).toBe(before + 2);
  });

  it("refuses a token used by another operator, in the same server process and in another", async () => {
    const args = { account: "sol-treasury", recipient: address("sol-cold"), amount: "0.5", unit: "SOL" };
    const { token } = await dryRun(treasury, "create_transaction", args);
    await expectRefused(
      "token used by staking-bot (same process)",
      staking,
      "create_transaction",
      { ...args, confirmation_token: token },
      /signature does not match/,
    );
    const fresh = await dryRun(treasury, "create_transaction", args);
    await expectRefused(
      "token used in another server process",
      otherProcess,
      "create_transaction",
      { ...args, confirmation_token: fresh.token },
      /signature does not match/,
    );
  });

  it("refuses a token for another tool, an altered token and a forged one", async () => {
    const args = { account: "dot-staking", amount: "1", unit: "DOT" };
    const { token } = await dryRun(treasury, "polkadot_bond_extra", args);
    await expectRefused("bond_extra token used for unbond", treasury, "polkadot_unbond", { ...args, confirmation_token: token }, /signature does not match/);
    const [prefix, nonce, mac] = (await dryRun(treasury, "polkadot_bond_extra", args)).token.split(".") as [string, string, string];
    const altered = `${nonce.startsWith("0") ? "1" : "0"}${nonce.slice(1)}`;
    await expectRefused(
      "token nonce altered",
      treasury,
      "polkadot_bond_extra",
      { ...args, confirmation_token: `${prefix}.${altered}.${mac}` },
      /signature does not match/,
    );
    await expectRefused(
      "token used by another operator",
      staking,
      "polkadot_bond_extra",
      { ...args, confirmation_token: `${prefix}.${nonce}.${mac}` },
      /signature does not match/,
    );
    await expectRefused(
      "token invented",
      treasury,
      "polkadot_bond_extra",
      { ...args, confirmation_token: "v1.eyJ2IjoxfQ.AAAA" },
      /signature does not match|malformed/,
    );
    await expectRefused("token empty", treasury, "polkadot_bond_extra", { ...args, confirmation_token: "" }, /malformed/);
  });
});

describe("the local policy against unit tricks and inflated fees", () => {
  it("applies a limit written in DOT to an amount written in planck, and the reverse", async () => {
    const limited = await openMcpSession(emulator, { policy: { limits: { polkadot: { max_per_transaction: { amount: "1", unit: "DOT" } } } } });
    const planckLimited = await openMcpSession(emulator, {
      policy: { limits: { polkadot: { max_per_transaction: { amount: "10000000000", unit: "planck" } } } },
    });
    try {
      const send = { account: "dot-staking", recipient: address("dot-vault") };
      for (const [session, limit, amount, unit] of [
        [limited, "1 DOT", "10000000001", "planck"],
        [limited, "1 DOT", "1.0000000001", "DOT"],
        [planckLimited, "10000000000 planck", "1.0000000001", "DOT"],
        [planckLimited, "10000000000 planck", "10000000001", "planck"],
      ] as const) {
        const answer = await callTool(session.client, "create_transaction", { ...send, amount, unit });
        tried.push({ case: `limit ${limit}, send ${amount} ${unit}`, status: answer.structured.status, reason: answer.text.slice(0, 160) });
        expect(answer.structured.status, answer.text).toBe("blocked");
        expect(answer.text).toContain("POLICY_MAX_PER_TRANSACTION");
      }
      // Limits weigh what a write commits: the amount plus max_fees (0.002 DOT here).
      const fees = { max_fees: "20000000", max_fees_unit: "planck" };
      const atLimit = await callTool(limited.client, "create_transaction", { ...send, ...fees, amount: "9980000000", unit: "planck" });
      expect(atLimit.structured.status, atLimit.text).toBe("dry_run");
      const overByFees = await callTool(limited.client, "create_transaction", { ...send, ...fees, amount: "9980000001", unit: "planck" });
      expect(overByFees.structured.status, overByFees.text).toBe("blocked");
    } finally {
      await limited.close();
      await planckLimited.close();
    }
  });

  // The local policy weighs the amount plus max_fees, so an inflated fee cap cannot carry value
  // past max_per_transaction.
  it("blocks max_fees inflated past the per-transaction limit (0.5 SOL sent, 50 SOL of fee cap, limit 1 SOL)", async () => {
    const limited = await openMcpSession(emulator, { policy: { limits: { solana_testnet: { max_per_transaction: { amount: "1", unit: "SOL" } } } } });
    try {
      const answer = await callTool(limited.client, "create_transaction", { ...solSend(), max_fees: "50", max_fees_unit: "SOL" });
      tried.push({ case: "max_fees 50 SOL under a 1 SOL limit", status: answer.structured.status, reason: answer.text.slice(0, 200) });
      expect(answer.structured.status, answer.text).toBe("blocked");
    } finally {
      await limited.close();
    }
  });
});
