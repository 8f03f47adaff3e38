import { delimitUntrusted, memberNames, missingSteps, requestExpiresAt, whenText, type RegistrationStanding } from "@custody/shared";
import { z } from "zod";

/** Where a registration stands: the user's status and its request, or null. */
export const RegistrationView = z.object({
  user_status: z.string().nullable(),
  request: z
    .object({
      id: z.number(),
      rule: z.string(),
      /** The approvals the request needs: the Admin rule's quorum (its steps' quorums added, should a request have several). */
      quorum: z.number(),
      missing: z.array(z.object({ step: z.number(), needs: z.number(), of: z.array(z.string()) })),
      expires_at: z.string(),
    })
    .nullable(),
});

/** A registration's standing for structuredContent: the user's status, and its request (id, rule, each step's quorum, approvals still needed, expiry). */
export function registrationView(standing: RegistrationStanding): z.infer<typeof RegistrationView> {
  const request = standing.request;
  return {
    user_status: standing.user?.status ?? null,
    request:
      request === null
        ? null
        : {
            id: request.id,
            rule: request.rule,
            quorum: request.steps.reduce((sum, step) => sum + step.quorum, 0),
            missing: missingSteps(request).map((step) => ({ step: step.index + 1, needs: step.missing, of: step.approvers.map((member) => member.username) })),
            expires_at: requestExpiresAt(request).toISOString(),
          },
  };
}

/** Where a registration stands and what comes next, in a sentence or two; names delimited. */
export function registrationText(name: string, standing: RegistrationStanding, now: Date): string {
  const shown = delimitUntrusted("name", name);
  const { user, request } = standing;
  if (user === null) {
    return (
      `${shown} exists in the module but is not registered in the workspace. Next: an ` +
      "administrator invites it there with this name and its device_id (given when it was " +
      "created; the audit log's create_operator record keeps it in details.device_id), then " +
      "call register_operator with the UUID of the invitation."
    );
  }
  if (user.status === "ACTIVE")
    return `${shown} is registered and ACTIVE: nothing to do; it acts where the accounts' rules name it (health_check as it shows where).`;
  if (user.status !== "PENDING_APPROVAL" || request === null)
    return `${shown} is registered with status ${user.status}: an administrator decides what follows (suspended and revoked operators cannot act).`;
  const needs = missingSteps(request)
    .map((step) => `step ${step.index + 1} needs ${step.missing} of ${delimitUntrusted("approvers", memberNames(step.approvers))}`)
    .join("; ");
  const quorum = request.steps.map((step) => step.quorum).join(" then ");
  return (
    `${shown} is registered: request ${request.id} (${request.type}, the workspace's ` +
    `${request.rule} rule, quorum ${quorum}) awaits the administrators: ` +
    `${needs || "no step short of its quorum"}; it expires ` +
    `${whenText(requestExpiresAt(request), now)}.`
  );
}
