import { describe, expect, it } from "vitest";
import { POLKADOT_AMOUNT_OPERATIONS, writeIdentity, writeSpec, type PolkadotAmountKind } from "@custody/shared";
import { demoForFile, planContext } from "../emulator-harness.js";

// The Polkadot family's specs (shared/src/kinds/polkadot) planned on the demo workspace's dot-staking account.

const demo = demoForFile();
const REFERENCE = "cw-0123456789abcdef0123";
const AMOUNT = 10_000_000_000n;

describe("the Polkadot amount writes, one factory over their data", () => {
  const kinds = Object.keys(POLKADOT_AMOUNT_OPERATIONS) as PolkadotAmountKind[];

  it.each(kinds)("%s drafts its operation through POST /transactions with the fixed values, drawing on its balance", async (kind) => {
    const operation = POLKADOT_AMOUNT_OPERATIONS[kind];
    const draft = await writeSpec(kind).planAny(planContext(demo.treasury()), { kind, account: "dot-staking", amount: AMOUNT }, REFERENCE);
    expect(writeIdentity(kind)).toMatchObject({ tool: kind, toolset: "polkadot_staking" });
    expect(draft.call).toMatchObject({
      method: "POST",
      path: "/transactions",
      body: { recipient: "", speed: "CUSTOM", coin_fields: { type: operation.type }, note: { title: kind.replaceAll("_", " ") } },
    });
    expect(draft.amounts).toEqual({ amount: AMOUNT });
    expect(draft.lostAnswer).toEqual({ by: "reference", expected: { operations: [operation.type], amount: AMOUNT.toString() } });
    expect(draft.balances.map((change) => change.name)[0]).toMatch(
      operation.draws === "available" ? /^balances\.available$/ : operation.draws === "bonded" ? /^balances\.bonded$/ : /unbond/,
    );
  });

  it("titles each kind as every surface names it", () => {
    expect(kinds.map((kind) => writeIdentity(kind).title)).toEqual(["Bond more DOT", "Unbond DOT", "Rebond DOT"]);
  });
});

describe("polkadot_set_payee", () => {
  it("blocks a destination that is no rewards destination and shows its body without estimating it", async () => {
    const draft = await writeSpec("polkadot_set_payee").planAny(
      planContext(demo.treasury()),
      { kind: "polkadot_set_payee", account: "dot-staking", payee: "Elsewhere" },
      REFERENCE,
    );
    expect(draft.checks.filter((check) => check.severity === "block").map((check) => check.code)).toContain("POLKADOT_PAYEE_UNKNOWN");
    expect(draft.fee).toEqual({ unknown: "not estimated: payee is not a rewards destination" });
    expect(draft.lostAnswer).toEqual({ by: "reference", expected: { operations: ["SETPAYEE"], payee: "Elsewhere" } });
  });
});
