import { existsSync, readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import { CustodyClient, verifyAuditLog } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control } from "../contract/emulator-harness.js";
import { callTool, openMcpSession, startQuietEmulator, transactionCount, type McpSession } from "./support/mcp-workspace.js";
import { recordFigures } from "./support/reliability-figures.js";
import { SCALE, TEST_TIMEOUT_MS } from "./support/reliability-scale.js";

// Confirmed writes through the MCP server while the emulator injects latency, 5xx, 420s and
// dropped connections (before and after handling). Every confirmation is then counted in the
// workspace by its correlation reference: exactly one transaction per submitted answer, none
// for a write reported as not sent, no reference twice, and the audit chain intact.

/** The fault phases, in turn; a 500 carries an error body, 502-504 are gateway answers. */
const PHASES = [500, 502, 503, 504].map((status) => ({
  latency_ms: 3,
  error_rate: 0.08,
  error_status: status,
  drop_rate: 0.04,
  drop_after_rate: 0.06,
  rate_limit_rate: 0.05,
  retry_after_seconds: 0,
}));

/** Sends between the demo accounts the operators' rules approve at once, in three currencies. */
/** In base units; each write adds its index, so that no two are the same intent (an identical send would be a duplicate). */
const SENDS = [
  { account: "sol-treasury", to: "sol-cold", amount: 2_000n, unit: "lamport" },
  { account: "dot-staking", to: "dot-vault", amount: 1_000_000n, unit: "planck" },
  { account: "eth-staking", to: "eth-ops", amount: 1_000n, unit: "wei" },
] as const;

type Outcome =
  | "submitted"
  | "submitted_after_lookup"
  | "not_found"
  | "uncertain"
  /** Refused before the POST: "Nothing was sent". */
  | "failed_before_send"
  /** The POST was answered with a 4xx (a 420 here): not applied. */
  | "refused_by_service"
  /** Failed after the POST was sent, without a look-up result: the outcome is unknown. */
  | "failed_unknown"
  | "refused"
  | "blocked";

const OUTCOMES: readonly Outcome[] = [
  "submitted",
  "submitted_after_lookup",
  "not_found",
  "uncertain",
  "failed_before_send",
  "refused_by_service",
  "failed_unknown",
  "refused",
  "blocked",
];

interface Attempt {
  reference: string;
  outcome: Outcome;
  transactionId: number | null;
  candidates: number[];
  message: string;
}

let emulator: RunningEmulator;
let session: McpSession;
const addresses = new Map<string, string>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  emulator = await startQuietEmulator();
  // The production client's retries (3 for a GET, never for a POST), with short waits to keep the run brief.
  session = await openMcpSession(emulator, { retry: { retries: 3, baseDelayMs: 10, maxDelayMs: 100 }, timeoutMs: 5000 });
  for (const account of await new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" }).listAllAccounts())
    addresses.set(account.name, account.address);
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await session?.close();
  await emulator?.close();
});

function classify(status: string | undefined, text: string): Outcome {
  if (status === "submitted") return /found by its reference/.test(text) ? "submitted_after_lookup" : "submitted";
  if (status === "not_found" || status === "uncertain" || status === "refused" || status === "blocked") return status;
  if (/Nothing was sent|nothing was written/.test(text)) return "failed_before_send";
  return /POST \S+ answered HTTP 4\d\d/.test(text) ? "refused_by_service" : "failed_unknown";
}

/** One confirmed write attempt: a dry run until one passes, then the confirmation with its token. */
async function confirmedWrite(index: number): Promise<{ attempt: Attempt | null; dryRunFailures: number }> {
  const send = SENDS[index % SENDS.length] as (typeof SENDS)[number];
  const args = {
    account: send.account,
    recipient: addresses.get(send.to),
    amount: (send.amount + BigInt(index)).toString(),
    unit: send.unit,
    note: `soak ${index}`,
  };
  let dryRunFailures = 0;
  for (;;) {
    const dry = await callTool(session.client, "create_transaction", args);
    if (dry.structured.status !== "dry_run") {
      dryRunFailures += 1;
      if (dryRunFailures > 50) throw new Error(`dry run keeps failing: ${dry.text}`);
      continue;
    }
    const confirmed = await callTool(session.client, "create_transaction", { ...args, confirmation_token: dry.token });
    const transaction = confirmed.structured.transaction as { id?: number } | undefined;
    return {
      dryRunFailures,
      attempt: {
        reference: String(dry.structured.reference),
        outcome: classify(confirmed.structured.status, confirmed.text),
        transactionId: typeof transaction?.id === "number" ? transaction.id : null,
        candidates: ((confirmed.structured.candidates as { id: number }[] | undefined) ?? []).map((candidate) => candidate.id),
        message: confirmed.text.slice(0, 300),
      },
    };
  }
}

/** The answer to a write applied whose answer and look-up were both lost (the reproduction below). */
let lostAnswer: { status: string | undefined; text: string; present: number } | null = null;

describe("a write applied whose answer is lost and whose look-up fails too", () => {
  it("reproduces it: the POST is handled then dropped, every look-up GET is dropped", async () => {
    const args = {
      account: "sol-treasury",
      recipient: addresses.get("sol-cold"),
      amount: "0.000001",
      unit: "SOL",
      max_fees: "0.0000075",
      max_fees_unit: "SOL",
      note: "lost answer",
    };
    const dry = await callTool(session.client, "create_transaction", args);
    expect(dry.structured.status).toBe("dry_run");
    // From the POST on (the reads of the account's recent transactions before it pass): the POST, then the 4 attempts of the look-up.
    await control(emulator, "PUT", "/faults", { drop_after_rate: 1, path_prefix: "/transactions", from_first: "POST", remaining: 5 });
    const confirmed = await callTool(session.client, "create_transaction", { ...args, confirmation_token: dry.token });
    expect(((await control(emulator, "GET", "/faults")) as { affected: number }).affected).toBe(5);
    await control(emulator, "DELETE", "/faults");
    const reader = new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" });
    const present = (await reader.searchAllTransactions({ label: String(dry.structured.reference) })).length;
    lostAnswer = { status: confirmed.structured.status, text: confirmed.text, present };
    expect(present).toBe(1);
    expect(confirmed.isError).toBe(true);
  });

  // Before shared's submitWrite caught a failed look-up, this write was answered "failed" although it
  // was applied, and an assistant could send it again.
  it("answers uncertain, not failed, when it cannot learn whether the write was applied", () => {
    expect(lostAnswer?.status).toBe("uncertain");
    expect(lostAnswer?.text).toContain("Nothing was re-sent");
  });
});

describe("confirmed writes under injected faults", () => {
  it(
    `${SCALE.confirmedWrites} confirmations submitted: each exactly once, none lost, none doubled, the audit chain intact`,
    async () => {
      const before = await transactionCount(emulator);
      const attempts: Attempt[] = [];
      let dryRunFailures = 0;
      let submitted = 0;
      let started = 0;
      const faultsAffected: number[] = [];
      const perPhase = Math.ceil(SCALE.confirmedWrites / PHASES.length);
      for (const [phase, faults] of PHASES.entries()) {
        await control(emulator, "PUT", "/faults", faults);
        const goal = Math.min(SCALE.confirmedWrites, (phase + 1) * perPhase);
        await Promise.all(
          Array.from({ length: SCALE.writers }, async () => {
            while (submitted < goal) {
              const result = await confirmedWrite(started++);
              dryRunFailures += result.dryRunFailures;
              if (!result.attempt) continue;
              attempts.push(result.attempt);
              if (result.attempt.outcome === "submitted" || result.attempt.outcome === "submitted_after_lookup") submitted += 1;
            }
          }),
        );
        faultsAffected.push(((await control(emulator, "GET", "/faults")) as { affected: number }).affected);
      }
      await control(emulator, "DELETE", "/faults");

      const reader = new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" });
      const found = new Map<string, number[]>();
      for (const attempt of attempts) {
        const matches = await reader.searchAllTransactions({ label: attempt.reference });
        found.set(
          attempt.reference,
          matches.filter((tx) => tx.notes.some((note) => note.content.includes(attempt.reference))).map((tx) => tx.id),
        );
      }
      const count = (outcome: Outcome) => attempts.filter((attempt) => attempt.outcome === outcome).length;
      const confirmedOk = attempts.filter((attempt) => attempt.outcome === "submitted" || attempt.outcome === "submitted_after_lookup");
      const lost = confirmedOk.filter(
        (attempt) => (found.get(attempt.reference) ?? []).length !== 1 || found.get(attempt.reference)?.[0] !== attempt.transactionId,
      );
      const doubled = attempts.filter((attempt) => (found.get(attempt.reference) ?? []).length > 1);
      const notSent = attempts.filter((attempt) => ["failed_before_send", "refused_by_service", "refused", "blocked"].includes(attempt.outcome));
      const reportedNotSentButPresent = notSent.filter((attempt) => (found.get(attempt.reference) ?? []).length > 0);
      const unresolved = attempts.filter((attempt) => ["not_found", "failed_unknown", "uncertain"].includes(attempt.outcome));
      const unresolvedButPresent = unresolved.filter((attempt) => (found.get(attempt.reference) ?? []).length > 0);
      const withReference = [...found.values()].reduce((sum, ids) => sum + ids.length, 0);
      const after = await transactionCount(emulator);
      const audit = existsSync(session.auditPath) ? verifyAuditLog(session.auditPath) : { ok: false as const, records: 0, line: 0, reason: "no audit log" };
      const auditSubmitted = readFileSync(session.auditPath, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { event: string })
        .filter((record) => record.event === "submitted").length;

      recordFigures("fault-soak", {
        confirmedWrites: confirmedOk.length,
        attempts: attempts.length,
        dryRunFailures,
        faults: { phases: PHASES, callsAffected: faultsAffected.reduce((sum, value) => sum + value, 0), perPhase: faultsAffected },
        outcomes: Object.fromEntries(OUTCOMES.map((outcome) => [outcome, count(outcome)])),
        lost: lost.length,
        doubled: doubled.length,
        reportedNotSentButPresent: reportedNotSentButPresent.length,
        unresolvedButPresent: unresolvedButPresent.map((attempt) => ({ outcome: attempt.outcome, reference: attempt.reference, message: attempt.message })),
        transactionsCreated: after - before,
        transactionsWithReference: withReference,
        audit: { ...audit, submittedRecords: auditSubmitted },
        unhandledRejections: unhandled.length,
        lostAnswerAndLookup: lostAnswer,
        samples: attempts.filter((attempt) => attempt.outcome !== "submitted").slice(0, 8),
      });

      expect(confirmedOk.length).toBeGreaterThanOrEqual(SCALE.confirmedWrites);
      expect(lost).toEqual([]);
      expect(doubled).toEqual([]);
      expect(reportedNotSentButPresent).toEqual([]);
      // Every failure after the POST is either a definite refusal or reported uncertain, never a bare failure.
      expect(attempts.filter((attempt) => attempt.outcome === "failed_unknown")).toEqual([]);
      // A write whose answer was lost and could not be found again must really be absent.
      expect(unresolvedButPresent.filter((attempt) => attempt.outcome === "not_found")).toEqual([]);
      // The emulator holds exactly the transactions these references account for: nothing unlabelled, nothing extra.
      expect(after - before).toBe(withReference);
      expect(audit.ok, JSON.stringify(audit)).toBe(true);
      expect(auditSubmitted).toBe(confirmedOk.length);
      expect(unhandled).toEqual([]);
      expect(faultsAffected.reduce((sum, value) => sum + value, 0)).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );
});
