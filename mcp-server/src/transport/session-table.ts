export interface SessionLimits {
  /** Sessions held at once, those being opened included. */
  max: number;
  /** A session with no request open for this long is closed. */
  idleMs: number;
}

interface Entry<S> {
  session: S;
  /** Requests of the session under way: POSTs being answered, its GET stream. */
  open: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The Streamable HTTP sessions of one server, by id: capped, and each handed to `expire` once it has
 * had no request open for the idle time (a connected client keeps its GET stream open, so only a
 * client that went away without ending its session is expired). Whoever closes a session removes it.
 */
export class SessionTable<S> {
  readonly #entries = new Map<string, Entry<S>>();
  #opening = 0;

  constructor(
    private readonly limits: SessionLimits,
    private readonly expire: (session: S) => void,
  ) {}

  /** Open sessions (not those being opened). */
  get size(): number {
    return this.#entries.size;
  }

  /** Holds a place for a session about to be opened; false when the table is full. */
  reserve(): boolean {
    if (this.#entries.size + this.#opening >= this.limits.max) return false;
    this.#opening += 1;
    return true;
  }

  /** Gives back a place held by reserve(): its session was opened (add) or never will be. */
  release(): void {
    this.#opening -= 1;
  }

  add(id: string, session: S): void {
    const entry: Entry<S> = { session, open: 0, timer: null };
    this.#entries.set(id, entry);
    this.#arm(entry);
  }

  get(id: string): S | undefined {
    return this.#entries.get(id)?.session;
  }

  /** A request of the session starts; call the function returned when it ends. */
  use(id: string): () => void {
    const entry = this.#entries.get(id);
    if (!entry) return () => {};
    entry.open += 1;
    this.#disarm(entry);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open -= 1;
      if (entry.open === 0 && this.#entries.get(id) === entry) this.#arm(entry);
    };
  }

  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#disarm(entry);
    this.#entries.delete(id);
  }

  values(): S[] {
    return [...this.#entries.values()].map((entry) => entry.session);
  }

  #arm(entry: Entry<S>): void {
    this.#disarm(entry);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      this.expire(entry.session);
    }, this.limits.idleMs);
    entry.timer.unref();
  }

  #disarm(entry: Entry<S>): void {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
  }
}
