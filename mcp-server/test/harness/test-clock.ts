/** A clock a test moves by hand. */
export class TestClock {
  #ms: number;

  constructor(start = Date.now()) {
    this.#ms = start;
  }

  now = (): Date => new Date(this.#ms);

  advance(ms: number): void {
    this.#ms += ms;
  }
}
