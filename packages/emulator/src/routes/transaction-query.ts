import { TransactionStatus } from "@custody/shared";
import { badRequest } from "../http/http-error.js";
import { readPageRequest, type PageRequest } from "../http/pagination.js";

export interface TransactionFilter {
  label: string | null;
  accountId: number | null;
  status: TransactionStatus | null;
  page: PageRequest;
}

/** The query of GET /transactions: label (note title or content), account_id, status, page, page_size. */
export function readTransactionFilter(query: URLSearchParams): TransactionFilter {
  const label = query.get("label");
  if (label !== null && label.trim() === "") throw badRequest("label: must not be empty; leave it out to list every transaction");
  const rawAccount = query.get("account_id");
  if (rawAccount !== null && !/^[0-9]{1,15}$/.test(rawAccount)) throw badRequest(`account_id: must be a whole number, got ${JSON.stringify(rawAccount)}`);
  const rawStatus = query.get("status");
  let status: TransactionStatus | null = null;
  if (rawStatus !== null) {
    const parsed = TransactionStatus.safeParse(rawStatus);
    if (!parsed.success) throw badRequest(`status: must be one of ${TransactionStatus.options.join(", ")}, got ${JSON.stringify(rawStatus)}`);
    status = parsed.data;
  }
  return { label, accountId: rawAccount === null ? null : Number(rawAccount), status, page: readPageRequest(query) };
}
