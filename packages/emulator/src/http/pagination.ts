import { badRequest } from "../domain/domain-error.js";

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 1000;
const MAX_PAGE = 1_000_000;

export interface PageRequest {
  page: number;
  pageSize: number;
}

// A type alias, not an interface, so that it is assignable to the schemas' loose objects.
export type Page<T> = {
  edges: { cursor: number; node: T }[];
  page_info: { count: number; has_next_page: boolean };
};

function readPositive(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^[0-9]{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw badRequest(`${name}: must be a whole number from 1 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** `page` (1-based) and `page_size` (default 30, at most 1000) of the query. */
export function readPageRequest(query: URLSearchParams): PageRequest {
  return {
    page: readPositive(query, "page", 1, MAX_PAGE),
    pageSize: readPositive(query, "page_size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
}

/** One page of the items; `cursor` is the item's 0-based position in the whole list, `count` the list's length. */
export function paginate<T>(items: readonly T[], { page, pageSize }: PageRequest): Page<T> {
  const start = (page - 1) * pageSize;
  const slice = items.slice(start, start + pageSize);
  return {
    edges: slice.map((node, index) => ({ cursor: start + index, node })),
    page_info: { count: items.length, has_next_page: start + slice.length < items.length },
  };
}

/** The page whose items were selected already: `nodes` start at the list's position `start`; `count` is the list's length. */
export function pageFrom<T>(nodes: readonly T[], start: number, count: number): Page<T> {
  return {
    edges: nodes.map((node, index) => ({ cursor: start + index, node })),
    page_info: { count, has_next_page: start + nodes.length < count },
  };
}

/** The 0-based position of the page's first item. */
export function pageStart({ page, pageSize }: PageRequest): number {
  return (page - 1) * pageSize;
}

/** The page with each node turned into its view (only the page's items are converted). */
export function mapPage<T, U>(page: Page<T>, view: (node: T) => U): Page<U> {
  return { edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: view(edge.node) })), page_info: page.page_info };
}
