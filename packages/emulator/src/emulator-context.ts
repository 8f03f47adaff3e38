import type { SimClock } from "./clock/sim-clock.js";
import type { EmulatorContext } from "./context.js";
import type { DomainEvent } from "./domain/domain-event.js";
import { FaultController } from "./faults/fault-controller.js";
import type { Hsm } from "./hsm/hsm.js";
import type { ModuleStorage } from "./module/module-storage.js";
import type { ResolvedOptions } from "./options.js";
import type { Store } from "./store/store.js";
import { WebhookDispatcher } from "./webhooks/webhook-dispatcher.js";

export interface ContextParts {
  options: ResolvedOptions;
  store: Store<DomainEvent>;
  clock: SimClock;
  hsm: Hsm;
  moduleStorage: ModuleStorage;
}

/** Wires a context: commits at the simulated now, webhooks fed once a commit is on disk. */
export function createContext(parts: ContextParts): EmulatorContext {
  const { options, store, clock } = parts;
  const webhooks = new WebhookDispatcher({
    subscriptions: () => store.values("webhook_subscriptions"),
    workspace: options.workspace,
    baseDelayMs: options.webhookRetryBaseMs,
    maxAttempts: options.webhookMaxAttempts,
    log: options.log,
  });
  const commitSync: EmulatorContext["commitSync"] = (work, at) => {
    const committed = store.commit(at ?? clock.now(), work);
    if (committed.events.length > 0)
      committed.durable.then(
        () => webhooks.dispatch(committed.events),
        () => undefined,
      );
    return committed;
  };
  return {
    ...parts,
    faults: new FaultController(),
    webhooks,
    commitSync,
    async commit(work, at) {
      const committed = commitSync(work, at);
      await committed.durable;
      return committed.value;
    },
  };
}
