import { CustodyApiError, delimitUntrusted, failureEvent, OperatorName, registrationStanding, errorMessage } from "@custody/shared";
import { registrationText } from "../../views/registration-view.js";
import { recordDone, recordOperation, withAuditWarning } from "../../guard/audit-trail.js";
import { recordView } from "../../views/workspace-view.js";
import { defineTool } from "../define-tool.js";
import { z } from "zod";
import { AuditWarning, toolOutput } from "../tool-output.js";

const NAME = "create_operator";

/** The API user the module created: its name and the device id the workspace's invitation needs. */
const ApiUserView = z.looseObject({ name: z.string(), device_id: z.string(), role: z.string(), type_: z.string(), workspace: z.string() });

export const createOperator = defineTool({
  name: NAME,
  title: "Create an API operator",
  description: "Creates an API operator in the module (registration step 1); an administrator then invites its device_id.",
  toolset: "operators",
  input: { name: OperatorName.describe("Operator name, no spaces") },
  output: toolOutput({ api_user: ApiUserView, ...AuditWarning }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const { ctx, signal } = call;
    let user: Awaited<ReturnType<typeof ctx.client.createApiUser>>;
    try {
      user = await ctx.client.createApiUser(args.name, { signal });
    } catch (error) {
      await recordOperation(call, { event: failureEvent(error), tool: NAME, request: { name: args.name }, error: errorMessage(error) });
      if (!(error instanceof CustodyApiError && error.status === 409)) throw error;
      // Created before: say where its registration stands and what comes next, not only the refusal.
      const standing = await registrationStanding(ctx.client, args.name, { signal });
      throw new Error(
        `the module already has an API user named ${delimitUntrusted("name", args.name)}; nothing was ` +
          `created. ${registrationText(args.name, standing, ctx.client.serviceNow())}`,
        { cause: error },
      );
    }
    // Recorded after the call's own try: an audit failure here must not be written down, or answered, as a failed creation.
    const warning = await recordDone(call, { event: "submitted", tool: NAME, request: { name: args.name }, details: { device_id: user.device_id } });
    return withAuditWarning(
      {
        structured: { api_user: recordView(user) as z.infer<typeof ApiUserView> },
        text:
          `Operator ${delimitUntrusted("name", user.name)} created, device_id ` +
          `${user.device_id}. Next: an administrator invites it in the workspace with this name ` +
          "and device_id, then call register_operator with the UUID they get.",
      },
      warning,
    );
  },
});
