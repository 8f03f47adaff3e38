import { SimClock } from "../clock/sim-clock.js";
import { DAY_MS } from "../clock/timestamps.js";
import type { DomainEvent } from "../domain/domain-event.js";
import { Scheduler } from "../domain/scheduler.js";
import { createContext } from "../emulator-context.js";
import type { Hsm } from "../hsm/hsm.js";
import type { ModuleStorage } from "../module/module-storage.js";
import type { ResolvedOptions, SeedName } from "../options.js";
import { META_KEY, type TableMaps } from "../store/state-types.js";
import { Store } from "../store/store.js";
import { baseState } from "./base-state.js";
import { playDemoHistory } from "./demo-history.js";
import { SeedDriver } from "./seed-driver.js";

const DEMO_DAYS = 30;

export interface SeedInput {
  options: ResolvedOptions;
  hsm: Hsm;
  moduleStorage: ModuleStorage;
  /** The world's clock offset: the seeded state ends at this clock's now. */
  clockOffsetMs: number;
}

/**
 * The tables of a new workspace. "empty": currencies, tokens and the human users. "demo": that,
 * then thirty days of history played on a private in-memory store, ending now.
 */
export async function buildSeed(seed: SeedName, input: SeedInput): Promise<TableMaps> {
  const { options } = input;
  const offset = seed === "demo" ? input.clockOffsetMs - DEMO_DAYS * DAY_MS : input.clockOffsetMs;
  const clock = new SimClock(offset);
  const tables = baseState(clock.now(), options.workspace);
  const meta = tables.meta.get(META_KEY);
  if (!meta) throw new Error("seed: no meta row");
  tables.meta.set(META_KEY, { ...meta, clock_offset_ms: offset });
  if (seed === "empty") return tables;
  const store = new Store<DomainEvent>(tables, 0);
  const ctx = createContext({ options, store, clock, hsm: input.hsm, moduleStorage: input.moduleStorage });
  await playDemoHistory(new SeedDriver(ctx, new Scheduler(ctx)));
  ctx.webhooks.close();
  const seeded = store.snapshotSource().tables;
  const end = seeded.meta.get(META_KEY);
  if (!end) throw new Error("seed: no meta row");
  seeded.meta.set(META_KEY, { ...end, clock_offset_ms: input.clockOffsetMs });
  return seeded;
}
