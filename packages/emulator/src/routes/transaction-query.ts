import { TransactionStatus } from "@custody/shared";
import { badRequest } from "../domain/domain-error.js";
import { readPageRequest, type PageRequest } from "../http/pagination.js";
import { positiveId } from "../domain/positive-id.js";

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
  const rawStatus = query.get("status");
  let status: TransactionStatus | null = null;
  if (rawStatus !== null) {
    const parsed = TransactionStatus.safeParse(rawStatus);
    if (!parsed.success) throw badRequest(`status: must be one of ${TransactionStatus.options.join(", ")}, got ${JSON.stringify(rawStatus)}`);
    status = parsed.data;
  }
  return { label, accountId: rawAccount === null ? null : positiveId(rawAccount, "account_id"), status, page: readPageRequest(query) };
}
