/**
 * Runs asynchronous work one at a time per key, in call order, within this process: a write's
 * re-check, reservation and POST for one operator and currency finish before the next begins.
 */
export class SerialByKey {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}

/** The key under which writes of one operator in one currency are serialised. */
export function writeSerialKey(operator: string, currency: string): string {
  return JSON.stringify([operator, currency]);
}
