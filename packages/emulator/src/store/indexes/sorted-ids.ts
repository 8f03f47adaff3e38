/**
 * Numeric row ids in ascending order. New ids are almost always the largest (they come from
 * counters), so adding is an append; a removal is only marked, and the marks are swept at the
 * next read, so removing every row (a reset) costs one pass rather than one pass per row.
 */
export class SortedIds {
  #ids: number[] = [];
  readonly #removed = new Set<number>();

  get size(): number {
    this.#sweep();
    return this.#ids.length;
  }

  add(id: number): void {
    if (this.#removed.delete(id)) return;
    const ids = this.#ids;
    const last = ids[ids.length - 1];
    if (last === undefined || last < id) {
      ids.push(id);
      return;
    }
    const at = lowerBound(ids, id);
    if (ids[at] !== id) ids.splice(at, 0, id);
  }

  delete(id: number): void {
    this.#removed.add(id);
  }

  /** The ids, ascending. The array is the index's own: do not change it. */
  ascending(): readonly number[] {
    this.#sweep();
    return this.#ids;
  }

  #sweep(): void {
    if (this.#removed.size === 0) return;
    const removed = this.#removed;
    this.#ids = this.#ids.filter((id) => !removed.has(id));
    removed.clear();
  }
}

/** The first position whose id is not below `id`. */
function lowerBound(ids: readonly number[], id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as number) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
