/** One request of the window's read: page `page` of size `size` covers the list's rows from (page - 1) × size up to `end`. */
export interface HistoryPage {
  page: number;
  size: number;
  end: number;
}

/** The smallest page of page/page_size paging that starts at or before row `from` and reaches row `to`. */
function pageCovering(from: number, to: number): HistoryPage {
  for (let size = Math.max(1, to - from); ; size += 1) {
    const page = Math.floor(from / size) + 1;
    if (page * size >= to) return { page, size, end: page * size };
  }
}

/**
 * The pages of a read of an account's newest `max` transactions, the first of `first` rows, each
 * later one starting at the last row of the one before or a little before it (read twice: the
 * last page, rows 1,024 to 1,279 after rows 513 to 1,025, starts a row earlier) and reaching about
 * twice as far: a page that joins the one before on such a row, or on a newer one, left no row
 * between them unread, whichever was answered first (transactions are never deleted and new ones
 * come first, so a transaction created meanwhile can only move rows into a later page).
 */
export function historyPages(first: number, max: number): HistoryPage[] {
  if (first < 3) throw new RangeError(`historyPages: a first page of at least 3 rows, got ${first}`);
  const pages: HistoryPage[] = [{ page: 1, size: first, end: first }];
  for (let end = first; end < max;) {
    const next = pageCovering(end - 1, Math.min(2 * (end - 1), max));
    pages.push(next);
    end = next.end;
  }
  return pages;
}
