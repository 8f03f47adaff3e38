import type { SimClock } from "./clock/sim-clock.js";
import type { DomainEvent } from "./domain/domain-event.js";
import type { FaultController } from "./faults/fault-controller.js";
import type { Hsm } from "./hsm/hsm.js";
import type { ModuleStorage } from "./module/module-storage.js";
import type { ResolvedOptions } from "./options.js";
import type { Store } from "./store/store.js";
import type { Committed } from "./store/store.js";
import type { StoreTx } from "./store/store-tx.js";
import type { WebhookDispatcher } from "./webhooks/webhook-dispatcher.js";

export type Tx = StoreTx<DomainEvent>;

/** Everything a handler works with. */
export interface EmulatorContext {
  readonly options: ResolvedOptions;
  readonly store: Store<DomainEvent>;
  readonly clock: SimClock;
  readonly hsm: Hsm;
  readonly moduleStorage: ModuleStorage;
  readonly faults: FaultController;
  readonly webhooks: WebhookDispatcher;
  /**
   * Runs the work as one commit at the given simulated time (default now), waits until it is
   * on disk, then hands its events to the webhooks.
   */
  commit<T>(work: (tx: Tx) => T, at?: number): Promise<T>;
  /** The same without waiting: the commit is applied at once, `durable` tells when it is on disk. */
  commitSync<T>(work: (tx: Tx) => T, at?: number): Committed<T, DomainEvent>;
}
