import { z } from "zod";

/**
 * A tool's output schema: the success fields, all optional because a failed call answers
 * { error } with the same schema (clients validate structured content of errors too).
 */
export function toolOutput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).partial().extend({ error: z.string().optional() });
}

/**
 * A record from the workspace, every field passed through (amounts as { base_units, display, unit }).
 * Output schemas name the top-level fields only, to keep tools/list small.
 */
export const Entity = z.looseObject({});

/** page_info of a list: count (total) and has_next_page. */
export const PageInfo = Entity;

/** Paging of list tools. */
export const PageInput = {
  page: z.number().min(1).optional(),
  page_size: z.number().min(1).max(1000).optional(),
};
