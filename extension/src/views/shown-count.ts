/** "200 of 10,001 accounts shown", or "200 accounts shown" when the service gives no total. */
export function shownCount(shown: number, total: number | undefined, what: string): string {
  const count = (value: number): string => value.toLocaleString("en-US");
  return total === undefined ? `${count(shown)} ${what} shown` : `${count(shown)} of ${count(total)} ${what} shown`;
}
