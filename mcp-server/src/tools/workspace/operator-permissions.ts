import { delimitUntrusted, expectGovernance, memberNames, operatorRoles, sanitizeUntrustedText, type Account, type RuleKind } from "@custody/shared";
import { z } from "zod";
import { AccountRef, MemberView, memberView } from "../../views/view-schemas.js";

/** A step a request this operator creates still waits for: how many more approvals, from whom. */
const WaitingStep = z.object({ step: z.number(), needs: z.number(), of: z.array(MemberView) });

/** What this operator may do on one account, and who else must act on what it creates. */
export const Permission = z.object({
  account: AccountRef,
  creates: z.array(z.string()),
  approves: z.array(z.string()),
  /** Per rule it creates under whose requests are not approved at once: the steps still short after its own approval. */
  waits_for: z.array(z.object({ rule: z.string(), steps: z.array(WaitingStep) })).optional(),
});
export type Permission = z.infer<typeof Permission>;

/** The steps each rule the operator creates under still needs after its own approval (the rule's quorum, who else). */
function waitsFor(account: Account, operator: string, creates: readonly RuleKind[]): NonNullable<Permission["waits_for"]> {
  const rules = account.governance_rules;
  if (!rules) return [];
  return creates.flatMap((kind) => {
    const rule = rules[kind];
    const expected = expectGovernance(rule, kind, operator);
    if (rule === null || expected.outcome !== "pending_approval") return [];
    const steps = expected.pending_steps.map((step) => ({
      step: step.index + 1,
      needs: step.missing,
      of: (rule.steps[step.index]?.approvers ?? []).filter((member) => member.username !== operator).map(memberView),
    }));
    return [{ rule: kind, steps }];
  });
}

export function permissionsOf(accounts: readonly Account[], operator: string): Permission[] {
  return accounts.map((account) => {
    const roles = account.governance_rules ? operatorRoles(account.governance_rules, operator) : { creates: [], approves: [] };
    const waiting = waitsFor(account, operator, roles.creates);
    return { account: { id: account.id, name: sanitizeUntrustedText(account.name) }, ...roles, ...(waiting.length > 0 ? { waits_for: waiting } : {}) };
  });
}

/** "sol-cold (2): creates under transaction; approves under transaction; what it creates under transaction waits for step 2: 1 of ..." */
export function permissionLine({ account, creates, approves, waits_for }: Permission, source: Account | undefined): string {
  const roles = [creates.length > 0 ? `creates under ${creates.join(", ")}` : "", approves.length > 0 ? `approves under ${approves.join(", ")}` : ""].filter(
    (part) => part !== "",
  );
  const waits = (waits_for ?? []).map(({ rule, steps }) => {
    const needs = steps.map((step) => `step ${step.step}: ${step.needs} of ${delimitUntrusted("approvers", memberNames(step.of))}`).join(", then ");
    return `every ${rule} request it creates waits for ${needs}`;
  });
  const rules = source?.governance_rules ? [...roles, ...waits].join("; ") || "in none of its rules" : "rules not reported";
  return `${delimitUntrusted("name", source?.name ?? account.name)} (${account.id}): ${rules}`;
}
