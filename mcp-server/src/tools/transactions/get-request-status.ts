import { delimitUntrusted, givenTransaction, type RequestStatus } from "@custody/shared";
import type { ServerContext } from "../../server/server-context.js";
import { CreatorView, creatorNames, creatorView } from "../../views/creator-view.js";
import { recordView } from "../../views/workspace-view.js";
import { defineTool } from "../define-tool.js";
import { positiveId } from "../id-input.js";
import { READ_HINTS } from "../tool-hints.js";
import { z } from "zod";
import { Entity, toolOutput } from "../tool-output.js";

function stepLine(step: RequestStatus["steps"][number]): string {
  const given = step.approvals.map((approval) => delimitUntrusted("username", approval.username)).join(", ") || "none";
  const eligible = step.approvers.map((member) => `${delimitUntrusted("username", member.username)}${member.is_api ? " (API)" : " (person)"}`).join(", ");
  return `step ${step.index + 1}: ${step.approvals.length}/${step.quorum} approvals (${given})${step.is_complete ? ", complete" : ""}; approvers: ${eligible}`;
}

/** The request named directly, or the transaction's governance request (its last_request). */
async function requestIdOf(args: { transaction_id?: number; request_id?: number }, ctx: ServerContext, signal: AbortSignal): Promise<number> {
  if (args.request_id !== undefined && args.transaction_id === undefined) return args.request_id;
  if (args.transaction_id !== undefined && args.request_id === undefined)
    return (await givenTransaction(ctx.client, args.transaction_id, { signal })).last_request;
  throw new Error("transaction_id, request_id: give exactly one of them");
}

/** A governance request: its rule, status, steps (quorum, approvers, approvals) and expiry. */
const RequestView = z.looseObject({
  id: z.number(),
  type: z.string(),
  status: z.string(),
  transaction_id: z.number().nullable(),
  rule: z.string(),
  is_complete: z.boolean(),
  created_by: CreatorView,
  created_on: z.string(),
  expired_at: z.string(),
  steps: z.array(Entity),
});

export const getRequestStatus = defineTool({
  name: "get_request_status",
  title: "Get a request's governance status",
  description: "A transaction's governance request (by transaction_id or request_id): rule, status, expiry, each step's quorum and approvals.",
  toolset: "read",
  input: { transaction_id: positiveId().optional(), request_id: positiveId().optional() },
  output: toolOutput({ request: RequestView }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const status = await ctx.client.getRequestStatus(await requestIdOf(args, ctx, signal), { signal });
    const usernames = await creatorNames(ctx.client, [status.created_by], signal);
    const head =
      `request ${status.id} (${status.rule} rule) ${status.status}, expires ` +
      `${status.expired_at}${status.transaction_id === null ? "" : `, transaction ${status.transaction_id}`}`;
    return {
      structured: { request: { ...(recordView(status) as z.infer<typeof RequestView>), created_by: creatorView(status.created_by, usernames) } },
      text: [head, ...status.steps.map(stepLine)].join("\n"),
    };
  },
});
