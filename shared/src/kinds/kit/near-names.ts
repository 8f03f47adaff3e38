/** How names are compared for a suggestion: case and the separators people swap ("eth_ops", "sol treasury") do not count. */
function folded(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_.]+/g, "-");
}

/** Edits (insert, delete, substitute, swap two neighbours) from a to b, or Infinity once more than `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return Number.POSITIVE_INFINITY;
  let previous: number[] = [];
  let before: number[];
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    [before, previous, row] = [previous, row, [i]];
    let smallest = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1);
      row[j] = value;
      smallest = Math.min(smallest, value);
    }
    if (smallest > limit) return Number.POSITIVE_INFINITY;
  }
  return row[b.length] as number;
}

/**
 * The names a mistyped one most likely meant, closest first (at most `most`): those within a
 * small number of edits (two, or a third of the name's length) once case and separators are
 * set aside, and those that contain it.
 */
export function nearNames(input: string, names: readonly string[], most = 3): string[] {
  const wanted = folded(input);
  if (wanted === "") return [];
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { name: string; distance: number }[] = [];
  for (const name of names) {
    const candidate = folded(name);
    const distance = candidate.includes(wanted) ? Math.min(editDistance(wanted, candidate, limit), limit) : editDistance(wanted, candidate, limit);
    if (distance <= limit) scored.push({ name, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance)
    .slice(0, most)
    .map((entry) => entry.name);
}
