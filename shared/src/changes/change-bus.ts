/**
 * Which resources changed, told to every listener of every process the bus spans: a change
 * published is a resource URI, nothing more (whoever listens reads the resource again).
 */
export interface ChangeBus {
  /** Tells every listener, here and in the other processes on the bus, that the resource changed. */
  publish(uri: string): void;
  /** Calls `listener` with each URI published from now on; returns the call that stops it (idempotent). */
  subscribe(listener: (uri: string) => void): () => void;
  close(): Promise<void>;
}

/** Calls each listener with `uri`; one that throws does not keep the others from hearing it. */
export function tellListeners(listeners: Iterable<(uri: string) => void>, uri: string, onError: (error: unknown) => void): void {
  for (const listener of [...listeners]) {
    try {
      listener(uri);
    } catch (error) {
      onError(error);
    }
  }
}

/** Adds a listener to a set; the call returned removes it, once. */
export function addListener(listeners: Set<(uri: string) => void>, listener: (uri: string) => void): () => void {
  const own = (uri: string) => listener(uri);
  listeners.add(own);
  return () => void listeners.delete(own);
}

/** The bus of a server that is one process (stdio, or HTTP on the file store): its listeners are all here. */
export class InProcessChangeBus implements ChangeBus {
  readonly #listeners = new Set<(uri: string) => void>();

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  publish(uri: string): void {
    tellListeners(this.#listeners, uri, this.onError);
  }

  subscribe(listener: (uri: string) => void): () => void {
    return addListener(this.#listeners, listener);
  }

  close(): Promise<void> {
    this.#listeners.clear();
    return Promise.resolve();
  }
}
