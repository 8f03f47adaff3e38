/**
 * The streams one person holds at once on a server, for either protocol generation (a 2025
 * session, whose GET stream carries its notifications, or a 2026-07-28 listen stream): at most
 * their share (perPersonShare). Without a person (the shared bearer token, one principal) nothing
 * is counted: only the server's own cap bounds it.
 */
export class PersonShare {
  readonly #held = new Map<string, number>();

  constructor(readonly share: number) {}

  /** A place for the person of `subject` (null: none), with the call that gives it back (once); null when they hold their share already. */
  take(subject: string | null): (() => void) | null {
    if (subject === null) return () => {};
    const held = this.#held.get(subject) ?? 0;
    if (held >= this.share) return null;
    this.#held.set(subject, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.#held.get(subject) ?? 1) - 1;
      if (left > 0) this.#held.set(subject, left);
      else this.#held.delete(subject);
    };
  }
}
