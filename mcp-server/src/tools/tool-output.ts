import { z } from "zod";

/**
 * A tool's output schema: the success fields, all optional because a failed call answers
 * { error } with the same schema (clients validate structured content of errors too).
 */
export function toolOutput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).partial().extend({ error: z.string().optional() });
}

export { AmountView, Entity } from "../views/view-schemas.js";

/** A call that changed something at the service: its audit record's failure, said beside what was done (audit-trail.ts recordDone). */
export const AuditWarning = { warning: z.string() };

/** page_info of a list: count (total) and has_next_page. */
export const PageInfo = z.looseObject({
  count: z.number(),
  has_next_page: z.boolean(),
  /** Said when a bounded read could not cover what was asked (search_transactions with since/until). */
  partial: z.string().optional(),
});

/** Paging of list tools. */
export const PageInput = {
  page: z.number().min(1).optional(),
  page_size: z.number().min(1).max(1000).optional(),
};
