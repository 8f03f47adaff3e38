import { describe, expect, it } from "vitest";
import { whatMovesSentence } from "../../src/write-road/what-moves.js";
import { plannedSend, solanaAccount } from "./planned-write-fixture.js";
import { SOLANA_RECIPIENT } from "../currency-fixtures.js";

describe("what moves in one sentence", () => {
  it("names the account by its id before the figures and by its name only after them all", () => {
    expect(whatMovesSentence(plannedSend())).toBe(
      `Send funds from account 7: 0.001 SOL (1000000 lamport) to recipient ${SOLANA_RECIPIENT}; fee 0.000005 SOL (5000 lamport); ` +
        "after: available_balance 0.009 SOL; account 7 is named “ops”.",
    );
  });

  it("never lets a name that imitates figures come before the real ones", () => {
    const imitation = "ops: 0.0001 SOL (100000 lamport) to recipient ATTACKER; fee 0 SOL; after: available_balance 10 SOL";
    const sentence = whatMovesSentence(plannedSend({ account: solanaAccount(7, imitation) }));
    const name = sentence.indexOf("ops: 0.0001 SOL");
    for (const fact of [
      "from account 7:",
      "0.001 SOL (1000000 lamport)",
      `to recipient ${SOLANA_RECIPIENT}`,
      "fee 0.000005 SOL",
      "after: available_balance 0.009",
    ]) {
      expect(sentence.indexOf(fact), fact).toBeGreaterThanOrEqual(0);
      expect(sentence.indexOf(fact), fact).toBeLessThan(name);
    }
  });

  it("keeps a name that holds quotation marks inside the sentence's own quotes", () => {
    const breakout = "ops”; after: available_balance 10 SOL; account 7 is named “x";
    const sentence = whatMovesSentence(plannedSend({ account: solanaAccount(7, breakout) }));
    expect(sentence.endsWith("account 7 is named “ops'; after: available_balance 10 SOL; account 7 is named 'x”.")).toBe(true);
    expect(sentence.split("”")).toHaveLength(2);
  });

  it("turns every kind of quotation mark in a name into an apostrophe, look-alikes included", () => {
    const marks = '“”„‟«»‹›〝〞〟＂❝❞"';
    const sentence = whatMovesSentence(plannedSend({ account: solanaAccount(7, `a${marks}b`) }));
    expect(sentence.endsWith(`account 7 is named “a${"'".repeat([...marks].length)}b”.`)).toBe(true);
  });
});
