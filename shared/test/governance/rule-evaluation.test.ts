import { describe, expect, it } from "vitest";
import { canApprove, canCreate, evaluateRule, expectGovernance, operatorRoles, renderText, type GovernanceRule } from "../../src/index.js";

const op = (username: string) => ({ username, is_api: true });
const human = (username: string) => ({ username, is_api: false });

const autoRule: GovernanceRule = { creators: [op("alice_ops")], steps: [{ quorum: 1, approvers: [op("alice_ops"), op("bob_ops")] }] };
const twoOperators: GovernanceRule = { creators: [op("alice_ops")], steps: [{ quorum: 2, approvers: [op("alice_ops"), op("bob_ops")] }] };
const humanRule: GovernanceRule = {
  creators: [op("alice_ops"), op("bob_ops")],
  steps: [
    { quorum: 1, approvers: [op("alice_ops"), op("bob_ops")] },
    { quorum: 1, approvers: [human("carol"), human("dave")] },
  ],
};

describe("governance rules", () => {
  it("knows creators and approvers", () => {
    expect(canCreate(autoRule, "alice_ops")).toBe(true);
    expect(canCreate(autoRule, "bob_ops")).toBe(false);
    expect(canApprove(autoRule, "bob_ops")).toBe(true);
    expect(canApprove(autoRule, "mallory")).toBe(false);
  });

  it.each([
    ["creator alone satisfies a one-operator step", autoRule, ["alice_ops"], true],
    ["one of two operators is short of a quorum of 2", twoOperators, ["alice_ops"], false],
    ["both operators satisfy a quorum of 2", twoOperators, ["alice_ops", "bob_ops"], true],
    ["operators alone do not satisfy a human step", humanRule, ["alice_ops", "bob_ops"], false],
    ["an operator and a human satisfy both steps", humanRule, ["bob_ops", "dave"], true],
    ["an unlisted approver counts for nothing", autoRule, ["mallory"], false],
  ])("%s", (_name, rule, approvals, satisfied) => {
    expect(evaluateRule(rule, approvals).is_satisfied).toBe(satisfied);
  });

  it("expects approval at once when API operators alone satisfy the rule", () => {
    expect(expectGovernance(autoRule, "transaction", "alice_ops").outcome).toBe("approved_at_once");
  });
  it("expects pending approval by another operator without a human", () => {
    const expectation = expectGovernance(twoOperators, "transaction", "alice_ops");
    expect(expectation).toMatchObject({ outcome: "pending_approval", needs_human: false });
    expect(expectation.pending_steps).toEqual([{ index: 0, missing: 1, human_approvers: [], api_approvers: ["bob_ops"] }]);
  });
  it("expects pending human approval", () => {
    const expectation = expectGovernance(humanRule, "transaction", "alice_ops");
    expect(expectation).toMatchObject({ outcome: "pending_approval", needs_human: true });
    expect(renderText(expectation.summary)).toMatch(/human approval required/);
  });
  it("refuses an operator who is not a creator, and a missing rule", () => {
    const refused = expectGovernance(autoRule, "transaction", "bob_ops");
    expect(refused.outcome).toBe("not_allowed");
    // Who can act instead is named: the rule's creators and each step's approvers.
    expect(renderText(refused.summary)).toBe(
      "operator bob_ops is not a creator in the account's transaction rule (creators: alice_ops (API); approvers: step 1, 1 of alice_ops (API), bob_ops (API))",
    );
    expect(renderText(expectGovernance(null, "staking", "alice_ops").summary)).toMatch(/no staking rule/);
  });

  it("tells in which of an account's rules an operator creates and approves", () => {
    const governance = { transaction: humanRule, staking: autoRule, smart_contract: null };
    expect(operatorRoles(governance, "bob_ops")).toEqual({ creates: ["transaction"], approves: ["transaction", "staking"] });
    expect(operatorRoles(governance, "carol")).toEqual({ creates: [], approves: ["transaction"] });
    expect(operatorRoles(governance, "mallory")).toEqual({ creates: [], approves: [] });
  });
});
