import { createHash } from "node:crypto";
import { canonicalJson } from "../audit/canonical-json.js";
import type { PlannedWrite } from "./planned-write.js";

/**
 * The digest of the exact request a plan would send, and of who sends it: a confirmation is
 * bound to it, so any change of operator, account, amount, recipient or fees changes the digest.
 */
export function requestDigest(plan: Pick<PlannedWrite, "operator" | "kind" | "call">): string {
  return createHash("sha256")
    .update(canonicalJson({ operator: plan.operator, kind: plan.kind, method: plan.call.method, path: plan.call.path, body: plan.call.body ?? null }))
    .digest("hex");
}
