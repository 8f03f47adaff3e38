/** Keys to sets of values: the buckets of a secondary index. Empty buckets are dropped. */
export class KeyMultimap<K, V> {
  readonly #buckets = new Map<K, Set<V>>();

  add(key: K, value: V): void {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = new Set();
      this.#buckets.set(key, bucket);
    }
    bucket.add(value);
  }

  delete(key: K, value: V): void {
    const bucket = this.#buckets.get(key);
    if (!bucket) return;
    bucket.delete(value);
    if (bucket.size === 0) this.#buckets.delete(key);
  }

  get(key: K): ReadonlySet<V> {
    return this.#buckets.get(key) ?? EMPTY;
  }

  clear(): void {
    this.#buckets.clear();
  }
}

const EMPTY: ReadonlySet<never> = new Set();
