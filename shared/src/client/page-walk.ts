import { z } from "zod";
import type { CallOptions } from "./client-options.js";
import { InvalidInputError, PageLimitError } from "./errors.js";
import { fieldIssues } from "../schemas/field-issues.js";

export const DEFAULT_MAX_PAGES = 100;
export const MAX_PAGES_LIMIT = 10_000;

export interface PageWalkOptions extends CallOptions {
  /** page_size sent on every page; the service's default when omitted. */
  pageSize?: number;
  /** Hard cap on the pages fetched (default 100); reaching it with more pages left raises PageLimitError. */
  maxPages?: number;
}

export interface PageOf<T> {
  edges: readonly { node: T }[];
  page_info: { has_next_page: boolean };
}

const WalkShape = z.object({
  pageSize: z.int().positive().max(1000).optional(),
  maxPages: z.int().positive().max(MAX_PAGES_LIMIT).optional(),
});

export function checkWalkOptions(subject: string, options: PageWalkOptions): { pageSize: number | undefined; maxPages: number } {
  const parsed = WalkShape.safeParse({ pageSize: options.pageSize, maxPages: options.maxPages });
  if (!parsed.success) throw new InvalidInputError(subject, fieldIssues(parsed.error));
  return { pageSize: parsed.data.pageSize, maxPages: parsed.data.maxPages ?? DEFAULT_MAX_PAGES };
}

/**
 * Yields the nodes of pages 1, 2, ... until a page says has_next_page false. Stops with
 * PageLimitError rather than return a silently truncated list when the cap is reached.
 */
export async function* walkPages<T>(path: string, maxPages: number, fetchPage: (page: number) => Promise<PageOf<T>>): AsyncGenerator<T, void, undefined> {
  for (let page = 1; page <= maxPages; page += 1) {
    const result = await fetchPage(page);
    for (const edge of result.edges) yield edge.node;
    if (!result.page_info.has_next_page) return;
  }
  throw new PageLimitError(path, maxPages);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
