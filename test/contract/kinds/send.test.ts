import { describe, expect, it } from "vitest";
import { renderText, writeSpec } from "@custody/shared";
import { demoForFile, planContext } from "../emulator-harness.js";

// The send family's spec (shared/src/kinds/send) planned on the demo workspace: the draft it hands the road.

const demo = demoForFile();
const REFERENCE = "cw-0123456789abcdef0123";
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

describe("send", () => {
  it("drafts one POST /transactions with the given cap, its note carrying the reference, and the look-up of a lost answer", async () => {
    const draft = await writeSpec("send").planAny(
      planContext(demo.treasury()),
      { kind: "send", account: "sol-treasury", amount: 1_000_000n, max_fees: 10_000n, recipient: RECIPIENT, speed: "NORMAL" },
      REFERENCE,
    );
    expect(draft.call).toMatchObject({
      method: "POST",
      path: "/transactions",
      body: { account_name: "sol-treasury", recipient: RECIPIENT, note: { title: "send", content: `[ref ${REFERENCE}]` } },
    });
    expect(draft.amounts).toEqual({ amount: 1_000_000n, max_fees: 10_000n });
    expect(draft.destinations).toEqual([{ role: "recipient", value: RECIPIENT }]);
    expect(draft.lostAnswer).toEqual({
      by: "reference",
      expected: { operations: ["SEND", "EXECUTE_CONTRACT"], amount: "1000000", recipient: { network: "Solana", address: RECIPIENT } },
    });
    expect(renderText(draft.summary)).toContain("max fees 0.00001 SOL (10000 lamport)");
  });

  it("proposes the cap from the service's estimate when the request names none", async () => {
    const draft = await writeSpec("send").planAny(
      planContext(demo.treasury()),
      { kind: "send", account: "sol-treasury", amount: 1_000_000n, recipient: RECIPIENT },
      REFERENCE,
    );
    expect(draft.proposed_max_fees).not.toBeNull();
    expect(draft.amounts).toEqual({ amount: 1_000_000n, max_fees: draft.proposed_max_fees });
    expect(draft.checks.map((check) => check.code)).toContain("MAX_FEES_PROPOSED");
  });
});
