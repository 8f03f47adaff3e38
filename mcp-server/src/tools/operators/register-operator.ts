import { boundedText, delimitUntrusted, INPUT_LIMITS, failureEvent, OperatorName, registrationStanding, withoutSecrets, errorMessage } from "@custody/shared";
import { RegistrationView, registrationView, registrationText } from "../../views/registration-view.js";
import { z } from "zod";
import { recordDone, recordOperation, withAuditWarning } from "../../guard/audit-trail.js";
import { defineTool } from "../define-tool.js";
import { AuditWarning, toolOutput } from "../tool-output.js";

const NAME = "register_operator";

export const registerOperator = defineTool({
  name: NAME,
  title: "Register an API operator",
  description: "Registers an invited operator with its invitation UUID (step 3); returns the request administrators approve and its quorum.",
  toolset: "operators",
  input: { name: OperatorName.describe("Operator name, as created"), uuid: boundedText(INPUT_LIMITS.uuid).describe("UUID from the workspace invitation") },
  output: toolOutput({ success: z.boolean(), ...RegistrationView.shape, ...AuditWarning }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const { ctx, signal } = call;
    // The invitation UUID is a one-time registration credential: it is not written to the audit log.
    let result: { success: boolean };
    try {
      result = await ctx.client.registerApiUser(args.name, args.uuid, { signal });
    } catch (error) {
      await recordOperation(call, {
        event: failureEvent(error),
        tool: NAME,
        request: { name: args.name },
        error: withoutSecrets(errorMessage(error), [args.uuid]),
      });
      throw error;
    }
    const warning = await recordDone(call, { event: result.success ? "submitted" : "failed", tool: NAME, request: { name: args.name } });
    if (!result.success) {
      const text = `The module did not register operator ${delimitUntrusted("name", args.name)}; check the name and UUID.`;
      return withAuditWarning({ structured: { success: false }, text }, warning);
    }
    const standing = await registrationStanding(ctx.client, args.name, { signal });
    return withAuditWarning(
      { structured: { success: true, ...registrationView(standing) }, text: registrationText(args.name, standing, ctx.client.serviceNow()) },
      warning,
    );
  },
});
