import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { SimClock } from "./clock/sim-clock.js";
import type { EmulatorContext } from "./context.js";
import { activeOperators, controlRoutes } from "./control/control-routes.js";
import type { DomainEvent } from "./domain/domain-event.js";
import { Scheduler } from "./domain/scheduler.js";
import { createContext } from "./emulator-context.js";
import { Hsm } from "./hsm/hsm.js";
import { loadMasterSecret } from "./hsm/master-secret.js";
import { RateLimiter } from "./http/rate-limiter.js";
import { createRequestListener } from "./http/request-listener.js";
import { moduleStorageConfig } from "./module/module-storage-config.js";
import { ModuleStorage } from "./module/module-storage.js";
import { resolveOptions, type EmulatorOptions, type SeedName } from "./options.js";
import { serviceRoutes } from "./routes/service-routes.js";
import { buildSeed } from "./seed/build-seed.js";
import { lockDataDir } from "./store/data-dir-lock.js";
import { DurableStorage } from "./store/durable-storage.js";
import { emptyTables, META_KEY } from "./store/state-types.js";
import { Store } from "./store/store.js";

export interface RunningEmulator {
  /** The service's base URL, base path included, e.g. http://127.0.0.1:4010/module. */
  baseUrl: string;
  /** The control plane's URL, e.g. http://127.0.0.1:4010/_control. */
  controlUrl: string;
  /** The ACTIVE API operators at start. */
  operators: string[];
  /** Stops listening, flushes the state and releases the data directory. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Starts the emulator: loads (or seeds) the state, then serves the API and the control plane. */
export async function startEmulator(input: EmulatorOptions = {}): Promise<RunningEmulator> {
  const options = resolveOptions(input);
  const dataDir = options.dataDir;
  const unlock = dataDir === null ? () => undefined : lockDataDir(dataDirReady(dataDir));
  try {
    const loaded = dataDir === null ? { tables: emptyTables(), seq: 0, fresh: true, compacted: false } : DurableStorage.load(join(dataDir, "state"));
    const store = new Store<DomainEvent>(loaded.tables, loaded.seq);
    const clock = new SimClock(loaded.tables.meta.get(META_KEY)?.clock_offset_ms ?? 0);
    const hsm = new Hsm(loadMasterSecret(dataDir === null ? null : join(dataDir, "hsm")));
    const moduleStorage = new ModuleStorage(moduleStorageConfig(options.env, dataDir));
    if (dataDir !== null) store.attach(await DurableStorage.start(join(dataDir, "state"), store.snapshotSource, loaded.compacted));
    const ctx = createContext({ options, store, clock, hsm, moduleStorage });
    const scheduler = new Scheduler(ctx);
    const reset = async (seed: SeedName): Promise<void> => {
      const tables = await buildSeed(seed, { options, hsm, moduleStorage, clockOffsetMs: clock.offset });
      for (const row of store.values("webhook_subscriptions")) tables.webhook_subscriptions.set(row.id, row);
      await store.replaceAll(clock.now(), tables).durable;
      scheduler.catchUp();
    };
    if (loaded.fresh || store.count("meta") === 0) await reset(options.seed);
    const server = createServer(
      createRequestListener({
        ctx,
        api: serviceRoutes(),
        control: controlRoutes({ scheduler, reset }),
        rateLimiter: options.rateLimit ? new RateLimiter(options.rateLimit) : null,
        catchUp: () => scheduler.catchUp(),
      }),
    );
    server.keepAliveTimeout = 5_000;
    const address = await listen(server, options.port, options.host);
    const tick = setInterval(() => safeCatchUp(ctx, scheduler), options.tickMs);
    tick.unref();
    const origin = `http://${urlHost(options.host)}:${address.port}`;
    return {
      baseUrl: `${origin}${options.basePath}`,
      controlUrl: `${origin}${options.controlPath}`,
      operators: activeOperators(ctx),
      close: closer(ctx, server, tick, unlock),
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

function dataDirReady(dir: string): string {
  return DurableStorage.ensureDir(dir);
}

function safeCatchUp(ctx: EmulatorContext, scheduler: Scheduler): void {
  try {
    scheduler.catchUp();
  } catch (error) {
    ctx.options.log(`scheduler: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

function closer(ctx: EmulatorContext, server: Server, tick: NodeJS.Timeout, unlock: () => void): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= (async () => {
      clearInterval(tick);
      ctx.webhooks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await ctx.store.close();
      unlock();
    })();
    return closing;
  };
}
