import pg from "pg";
import { addListener, tellListeners, type ChangeBus } from "../changes/change-bus.js";
import { DatabaseTarget } from "./database-url.js";
import { errorMessage } from "../untrusted/error-message.js";

/** The PostgreSQL channel every replica LISTENs on and NOTIFYs: a notification's payload is one resource URI. */
export const CHANGE_CHANNEL = "custody_resource_changed";

/** A payload longer than this is not one of ours (NOTIFY allows 8000 bytes; a URI of ours is far shorter). */
const MAX_PAYLOAD = 512;
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 30_000;

export interface ChangeChannelOptions {
  /** Whether a payload received is a URI listeners should hear; anything else is dropped and logged. */
  accepts(uri: string): boolean;
  log: (line: string) => void;
}

/**
 * A change bus across the replicas sharing one database: one connection of this process LISTENs
 * on CHANGE_CHANNEL and NOTIFYs on it. A change published here reaches this process's listeners at
 * once (its echo from the database is skipped) and the other replicas through the database. A
 * lost connection is opened again with a growing pause, for as long as the process runs: what is
 * published meanwhile reaches only this process (the watchers of the other replicas still see what
 * they poll), and nothing is queued.
 */
export class PostgresChangeChannel implements ChangeBus {
  readonly #target: DatabaseTarget;
  readonly #options: ChangeChannelOptions;
  readonly #listeners = new Set<(uri: string) => void>();
  #client: pg.Client | null = null;
  #closed = false;
  #retryMs = FIRST_RETRY_MS;
  #timer: NodeJS.Timeout | null = null;

  constructor(url: string, options: ChangeChannelOptions) {
    this.#target = new DatabaseTarget(url);
    this.#options = options;
  }

  /** Connects and listens; fails (its message redacted) when the database cannot be reached now. */
  async open(): Promise<void> {
    await this.#connect();
    this.#options.log(`change bus: listening on PostgreSQL channel ${CHANGE_CHANNEL}`);
  }

  publish(uri: string): void {
    tellListeners(this.#listeners, uri, (error) => this.#options.log(`change bus: a listener failed: ${errorMessage(error)}`));
    const client = this.#client;
    if (client === null) return;
    client.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, uri]).catch((error: unknown) => {
      this.#options.log(`change bus: could not tell the other replicas that ${uri} changed (${this.#target.redact(errorMessage(error))})`);
    });
  }

  subscribe(listener: (uri: string) => void): () => void {
    return addListener(this.#listeners, listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#listeners.clear();
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#target.url,
      application_name: "custody-mcp-changes",
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    let lost = false;
    const onLost = (why: string) => {
      if (lost) return;
      lost = true;
      client.end().catch(() => {});
      // A connection that never became the bus's is its attempt's failure, which that attempt's caller retries: one retry, not a second loop.
      if (this.#client !== client) return;
      this.#client = null;
      if (this.#closed) return;
      this.#options.log(`change bus: lost its PostgreSQL connection (${this.#target.redact(why)}); listening again in ${this.#retryMs} ms`);
      this.#retryLater();
    };
    client.on("error", (error) => onLost(error.message));
    client.on("end", () => onLost("the connection ended"));
    // This connection's own NOTIFYs come back to it: their listeners here heard them when published.
    let ownPid: number | null = null;
    client.on("notification", (message) => {
      if (message.channel !== CHANGE_CHANNEL || message.processId === ownPid) return;
      this.#receive(message.payload);
    });
    try {
      await client.connect();
      ownPid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid ?? null;
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => {});
      throw this.#target.redactError(error, `change bus on ${this.#target.shown}: `);
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = FIRST_RETRY_MS;
  }

  #retryLater(): void {
    const wait = this.#retryMs;
    this.#retryMs = Math.min(LAST_RETRY_MS, this.#retryMs * 2);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#closed) return;
      this.#connect().then(
        () => this.#options.log(`change bus: listening on PostgreSQL channel ${CHANGE_CHANNEL} again`),
        (error: unknown) => {
          this.#options.log(`change bus: ${errorMessage(error)}; trying again in ${this.#retryMs} ms`);
          this.#retryLater();
        },
      );
    }, wait);
    this.#timer.unref();
  }

  #receive(payload: string | undefined): void {
    if (payload === undefined || payload.length > MAX_PAYLOAD || !this.#options.accepts(payload)) {
      this.#options.log(
        `change bus: dropped a notification on ${CHANGE_CHANNEL} that is not a resource URI of ours ` +
          `(${payload === undefined ? "no payload" : `${payload.length} characters`})`,
      );
      return;
    }
    tellListeners(this.#listeners, payload, (error) => this.#options.log(`change bus: a listener failed: ${errorMessage(error)}`));
  }
}

/** Opens the change bus on the database at `url` (the guard store's): listening before it returns. */
export async function openPostgresChangeChannel(url: string, options: ChangeChannelOptions): Promise<PostgresChangeChannel> {
  const channel = new PostgresChangeChannel(url, options);
  await channel.open();
  return channel;
}
