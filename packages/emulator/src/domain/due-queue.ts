export type DueKind = "sign" | "broadcast" | "expire";

/** The next time-driven step of one transaction. */
export interface Due {
  at: number;
  kind: DueKind;
  transactionId: number;
}

function before(a: Due, b: Due): boolean {
  return a.at < b.at || (a.at === b.at && a.transactionId < b.transactionId);
}

/**
 * Each transaction's next due step, earliest first (ties: lowest transaction id). A binary heap
 * whose entries are dropped lazily: an entry counts only while it is still the transaction's
 * current one, so a change costs O(log n) and finding the earliest is O(1) amortised.
 */
export class DueQueue {
  readonly #current = new Map<number, Due>();
  #heap: Due[] = [];

  get size(): number {
    return this.#current.size;
  }

  /** Sets (or, with undefined, clears) the transaction's next step. */
  set(transactionId: number, due: Due | undefined): void {
    const current = this.#current.get(transactionId);
    if (current && due && current.at === due.at && current.kind === due.kind) return;
    if (!due) {
      this.#current.delete(transactionId);
      return;
    }
    this.#current.set(transactionId, due);
    this.#push(due);
    if (this.#heap.length > 2 * this.#current.size + 1024) this.#rebuild();
  }

  /** The earliest step still current, or undefined when nothing is due at all. */
  peek(): Due | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined || this.#current.get(top.transactionId) === top) return top;
      this.#pop();
    }
  }

  #push(due: Due): void {
    const heap = this.#heap;
    heap.push(due);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >>> 1;
      const above = heap[parent] as Due;
      if (!before(due, above)) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = due;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as Due, heap[left] as Due) ? right : left;
      if (!before(heap[child] as Due, last)) break;
      heap[index] = heap[child] as Due;
      index = child;
    }
    heap[index] = last;
  }

  #rebuild(): void {
    this.#heap = [];
    for (const due of this.#current.values()) this.#push(due);
  }
}
