import { localText, type LocalText } from "../l10n/translate.js";
import type { Person } from "../identity/person.js";
import type { WriteIdentity } from "../kinds/kit/write-spec.js";
import { grantFor, grantOperator } from "../policy/person-grant.js";
import type { Policy } from "../policy/policy.js";
import { toolPermission, writeToolQuery } from "../policy/tool-permission.js";

/** Why the person may not make this write through the road of this operator, or null when they may. */
export function writePermission(policy: Policy, identity: WriteIdentity, person: Person | null, operator: string): LocalText | null {
  const verdict = toolPermission(policy, writeToolQuery(identity), person);
  if (!verdict.allowed) return verdict.text;
  // A surface hands each person the road of the operator their role acts as.
  const acting = grantOperator(grantFor(policy, person), operator);
  return acting === operator ? null : localText("this write would be made as operator {0}, but your role acts as {1}", operator, acting);
}
