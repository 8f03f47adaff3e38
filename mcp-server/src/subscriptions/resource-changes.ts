import { InProcessChangeBus, stringifyJsonExact, type ChangeBus, errorMessage } from "@custody/shared";
import { deferredContext, type ContextSource } from "../server/server-context.js";
import { ResourcePoller, type Watching } from "./resource-poller.js";
import { accountUri, transactionUri, watchedResource } from "../resources/resource-uris.js";

/**
 * A process's resource changes: the bus they travel on (to every replica sharing it), the poller
 * that watches what someone is subscribed to, and what the writes this process sends changed.
 */
export interface ResourceChanges {
  bus: ChangeBus;
  /** Keeps an account or transaction URI polled until released (any other URI: nothing to poll); null when the poller is full. */
  watch(uri: string): Watching | null;
  /** A write this process sent touched the account and created or changed the transaction. */
  written(accountId: number, transactionId: number | null): void;
  close(): Promise<void>;
}

export interface ResourceChangesOptions {
  log: (line: string) => void;
  /** How often a watched resource is read again (default: --watch-interval-seconds' default). */
  intervalMs?: number;
  maxWatched?: number;
}

/** What a watched resource is now, for comparison with its last reading: a transaction's status, an account's balances. */
async function reading(source: ContextSource, uri: string, signal: AbortSignal): Promise<string> {
  const resource = watchedResource(uri);
  if (resource === null) throw new Error(`${uri} is not an account or a transaction`);
  const { client } = await deferredContext(source).load();
  if (resource.kind === "transaction") return (await client.getTransaction(resource.id, { signal })).status;
  const account = await client.getAccount(resource.id, { signal });
  return stringifyJsonExact({ balance: account.balance, available_balance: account.available_balance, coin_fields: account.coin_fields });
}

/** Resource changes over `bus` (PostgreSQL's for replicas, the process's own otherwise), read through the process's context. */
export function resourceChanges(source: ContextSource, bus: ChangeBus, options: ResourceChangesOptions): ResourceChanges {
  const poller = new ResourcePoller({
    read: (uri, signal) => reading(source, uri, signal),
    changed: (uri) => bus.publish(uri),
    log: options.log,
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    ...(options.maxWatched === undefined ? {} : { maxWatched: options.maxWatched }),
  });
  return {
    bus,
    watch: (uri) => (watchedResource(uri) === null ? { ready: Promise.resolve(), release: () => {} } : poller.watch(uri)),
    written: (accountId, transactionId) => {
      bus.publish(accountUri(accountId));
      if (transactionId !== null) bus.publish(transactionUri(transactionId));
    },
    close: async () => {
      poller.close();
      await bus.close();
    },
  };
}

/** The changes of a server that is one process: its own bus. */
export function inProcessChanges(source: ContextSource, options: ResourceChangesOptions): ResourceChanges {
  return resourceChanges(source, new InProcessChangeBus((error) => options.log(`change bus: a listener failed: ${errorMessage(error)}`)), options);
}
