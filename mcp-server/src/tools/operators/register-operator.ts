import { boundedText, INPUT_LIMITS, isAmbiguous, OperatorName } from "@custody/shared";
import { z } from "zod";
import { recordOperation } from "../../guard/audit-trail.js";
import { defineTool } from "../define-tool.js";
import { errorMessage } from "../error-message.js";
import { toolOutput } from "../tool-output.js";

const NAME = "register_operator";

export const registerOperator = defineTool({
  name: NAME,
  title: "Register an API operator",
  description:
    "Registers an operator with the UUID the workspace issued when an administrator invited it (step 3). Administrators must then approve it before it can act.",
  toolset: "operators",
  input: { name: OperatorName.describe("Operator name, as created"), uuid: boundedText(INPUT_LIMITS.uuid).describe("UUID from the workspace invitation") },
  output: toolOutput({ success: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, { ctx, signal }) {
    // The invitation UUID is a one-time registration credential: it is not written to the audit log.
    let result: { success: boolean };
    try {
      result = await ctx.client.registerApiUser(args.name, args.uuid, { signal });
    } catch (error) {
      const redacted = errorMessage(error).split(args.uuid).join("<uuid>").split(encodeURIComponent(args.uuid)).join("<uuid>");
      await recordOperation(ctx, { event: isAmbiguous(error) ? "ambiguous" : "failed", tool: NAME, request: { name: args.name }, error: redacted });
      throw error;
    }
    await recordOperation(ctx, { event: result.success ? "submitted" : "failed", tool: NAME, request: { name: args.name } });
    return {
      structured: { success: result.success },
      text: result.success
        ? `Operator ${args.name} registered: a Create user request now awaits the administrators' approval.`
        : `The module did not register operator ${args.name}; check the name and UUID.`,
    };
  },
});
