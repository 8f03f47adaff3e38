import { describe, expect, it } from "vitest";
import {
  AmountError,
  english,
  errorMessage,
  expectGovernance,
  finding,
  findingJson,
  findingMessage,
  localText,
  parseUnits,
  readFinding,
  renderText,
  unknownOutcomeText,
  type Translate,
  type WriteTrace,
} from "../../src/index.js";

/** A bundle that keeps each template's placeholders and punctuation and writes its letters as "~"; it keeps the values it was given. */
function masking(): { t: Translate; values: string[] } {
  const values: string[] = [];
  const t: Translate = (message, ...args) => {
    for (const arg of args) if (!String(arg).includes("«")) values.push(String(arg));
    return english(`«${message.replace(/[A-Za-z]/g, "~")}»`, ...args);
  };
  return { t, values };
}

/** The words left once the values are taken out: English no template held. */
function untranslated(text: string, values: readonly string[]): string[] {
  let rest = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) if (value !== "") rest = rest.split(value).join("");
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

const SOL = {
  name: "SOL",
  units: [
    { code: "lamport", magnitude: 0 },
    { code: "SOL", magnitude: 9 },
  ],
};

const base = {
  reference: "cw-00000000000000000123",
  fingerprint: "f",
  operator: "treasury-bot",
  tool: "create_transaction",
  reserved_at: "2026-11-26T10:00:00Z",
};
const TRACES: Array<[string, WriteTrace, boolean, string]> = [
  [
    "looked up by its reference, under way",
    {
      ...base,
      status: "uncertain",
      transaction_id: null,
      repeat_of: null,
      lookups: 3,
      last_lookup: { at: "2026-11-26T10:12:00Z", found: "nothing" },
    } as WriteTrace,
    true,
    "UNKNOWN, still being looked up (3 look-ups so far, the last at 2026-11-26T10:12Z found nothing): it " +
      "may still be applied and counts against the daily limit; search_transactions label " +
      "cw-00000000000000000123 tells if it appeared; to send it again anyway, a new dry run of it names the " +
      "repeat_of to pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
  ],
  [
    "an approval, given up after finding candidates",
    {
      ...base,
      status: "uncertain",
      transaction_id: null,
      repeat_of: null,
      given_up: true,
      recognition: { lost: { by: "approval", transaction_id: 9, request_id: 2 } },
      lookups: 1,
      last_lookup: { at: "2026-11-26T10:42:00Z", found: "candidates", candidates: [12, 14] },
    } as unknown as WriteTrace,
    false,
    "UNKNOWN, not found among transaction 9's approvals in 1 look-up until 2026-11-26T10:42Z (the last found " +
      "transaction(s) 12, 14, which could be it but differ from it or are several), which have stopped: it may " +
      "still be applied and counts against the daily limit; get_request_status of transaction 9 tells if the " +
      "approval counted; to send it again anyway, a new dry run of it names the repeat_of to pass " +
      "(DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
  ],
  [
    "recorded before look-ups were counted, given up",
    {
      ...base,
      status: "uncertain",
      transaction_id: null,
      repeat_of: null,
      given_up: true,
      looked_for_ms: 120_000,
      concluded_at: "2026-11-26T10:42:00Z",
    } as WriteTrace,
    false,
    "UNKNOWN, not found by its reference in look-ups over 2 min until 2026-11-26T10:42Z, which have stopped: " +
      "it may still be applied and counts against the daily limit; search_transactions label " +
      "cw-00000000000000000123 tells if it appeared; to send it again anyway, a new dry run of it names the " +
      "repeat_of to pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
  ],
  [
    "no look-up under way",
    { ...base, status: "uncertain", transaction_id: null, repeat_of: null } as WriteTrace,
    false,
    "UNKNOWN, no look-up under way in this server (the next to open the store resumes it): it may still " +
      "be applied and counts against the daily limit; search_transactions label cw-00000000000000000123 " +
      "tells if it appeared; to send it again anyway, a new dry run of it names the repeat_of to pass " +
      "(DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
  ],
];

describe("the translator shared's text builders take", () => {
  it("by default fills {0}-style placeholders as vscode.l10n.t does without a bundle, and leaves others as written", () => {
    expect(english("{1} of {0}, {0}", "a", 2)).toBe("2 of a, a");
    expect(english("must be { base_units }, got {0}", '"x"')).toBe('must be { base_units }, got "x"');
    expect(renderText(localText("{0}: {1}", "amount", localText("at most {0} characters", 80)))).toBe("amount: at most 80 characters");
  });

  it("tells an amount's unit-math error in English by default, and wholly through a translator", () => {
    let error: unknown;
    try {
      parseUnits("1,5", SOL, undefined, "amount");
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AmountError);
    expect(errorMessage(error)).toBe('amount: must not contain thousands separators or a decimal comma; use "." as the only separator, got "1,5"');
    const { t, values } = masking();
    const translated = errorMessage(error, undefined, t);
    expect(translated).toMatch(/^«/);
    expect(untranslated(translated, values)).toEqual([]);
  });

  it.each(TRACES)("words a write whose outcome is unknown (%s) as before by default, and wholly through a translator", (_label, trace, lookingUp, wording) => {
    expect(unknownOutcomeText(trace, lookingUp)).toBe(wording);
    const { t, values } = masking();
    const translated = unknownOutcomeText(trace, lookingUp, t);
    expect(translated).toMatch(/^«/);
    expect(untranslated(translated, values)).toEqual([]);
  });

  it("tells a finding read back from JSON wholly through a translator when it carries its text, and in English when not", () => {
    // A governance check, its message the governance summary: names in a list in a sentence.
    const rule = {
      creators: [{ username: "treasury-bot", is_api: true }],
      steps: [
        {
          quorum: 2,
          approvers: [
            { username: "treasury-bot", is_api: true },
            { username: "dana.approver", is_api: false },
          ],
        },
      ],
    };
    const made = finding("info", "GOVERNANCE_PENDING_APPROVAL", expectGovernance(rule, "transaction", "treasury-bot").summary, { rule: "transaction" });
    expect(made.message).toBe("pending approval: step 1 needs 1 more approval(s) from dana.approver (human approval required)");
    const read = readFinding(JSON.parse(JSON.stringify(findingJson(made))));
    expect(read).toEqual(made);
    const { t, values } = masking();
    const translated = findingMessage(read, t);
    expect(translated).toMatch(/^«/);
    expect(untranslated(translated, values)).toEqual([]);
    expect(findingMessage(read)).toBe(made.message);
    // Written without its text, or with a text that says something else than its message: the message as it was.
    expect(findingMessage(readFinding(JSON.parse(JSON.stringify(made))), t)).toBe(made.message);
    const forged = { ...findingJson(made), text: localText("all approved") };
    expect(findingMessage(readFinding(forged), t)).toBe(made.message);
    expect(() => readFinding({ ...made, text: { template: "x".repeat(5000), args: [] } })).toThrow(/must be a text/);
  });
});
