/** The promises handed out by idle(), resolved together when the count reaches zero. */
export class IdleWaiters {
  #waiters: (() => void)[] = [];

  wait(pending: number): Promise<void> {
    if (pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Call after the count changed. */
  update(pending: number): void {
    if (pending > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
