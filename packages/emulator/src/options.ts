import { localSecretProblem } from "@custody/shared";

export type SeedName = "demo" | "empty";

export interface RateLimitOptions {
  /** Requests per second allowed to each operator (refilled continuously). */
  requestsPerSecond: number;
  /** How many requests may come at once; defaults to requestsPerSecond. */
  burst?: number;
}

export interface EmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Base path of the service, the module's path segment; default /module. */
  basePath?: string;
  /** Prefix of the control plane; default /_control. */
  controlPath?: string;
  /** Serve the control plane to non-loopback callers too; default false. */
  controlFromAnyAddress?: boolean;
  /**
   * A secret every request (service and control plane) must carry in X-Emulator-Key, so that only
   * whoever started the emulator reaches it; default none. Never logged.
   */
  key?: string | null;
  /** Directory holding the state; null or absent keeps everything in memory. */
  dataDir?: string | null;
  /** Seed applied when the state is new; default demo. */
  seed?: SeedName;
  /** Length of a Solana epoch in simulated seconds; default 216000 (2.5 days). */
  epochSeconds?: number;
  /** Real-time delay before an approved transaction is signed, and again before it is broadcast; default 100 ms. */
  processingDelayMs?: number;
  /** How often the scheduler looks for due work, in real milliseconds; default 25. */
  tickMs?: number;
  /** Per-operator rate limit answered with 420; default none. */
  rateLimit?: RateLimitOptions | null;
  /** Environment for the module storage settings (CERT_STORAGE_*, USER_STORAGE_*); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Webhook retries: first delay and number of attempts; defaults 1000 ms and 6. */
  webhookRetryBaseMs?: number;
  webhookMaxAttempts?: number;
  /** Workspace name; default "emulator-workspace". */
  workspace?: string;
  /** Where diagnostic lines go; default stderr. Never receives keys or secrets. */
  log?: (line: string) => void;
}

export type ResolvedOptions = Required<Omit<EmulatorOptions, "dataDir" | "rateLimit" | "key">> & {
  dataDir: string | null;
  rateLimit: RateLimitOptions | null;
  key: string | null;
};

function normalisePath(path: string, name: string): string {
  const trimmed = `/${path.trim().replace(/^\/+|\/+$/g, "")}`;
  // A "." or ".." segment is resolved away by every client's URL parser: the emulator would serve a path no client requests.
  if (!/^(\/[A-Za-z0-9._~-]+)*\/?$/.test(trimmed) || /\/\.{1,2}(\/|$)/.test(trimmed))
    throw new RangeError(`${name}: must be a URL path such as /module, got ${JSON.stringify(path)}`);
  return trimmed === "/" ? "" : trimmed;
}

function positiveInteger(value: number, name: string, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name}: must be a whole number of at least ${min}, got ${value}`);
  return value;
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    host: options.host ?? "127.0.0.1",
    port: positiveInteger(options.port ?? 0, "port", 0),
    basePath: normalisePath(options.basePath ?? "/module", "basePath"),
    controlPath: normalisePath(options.controlPath ?? "/_control", "controlPath"),
    controlFromAnyAddress: options.controlFromAnyAddress ?? false,
    key: options.key ?? null,
    dataDir: options.dataDir ?? null,
    seed: options.seed ?? "demo",
    epochSeconds: positiveInteger(options.epochSeconds ?? 216_000, "epochSeconds", 1),
    processingDelayMs: positiveInteger(options.processingDelayMs ?? 100, "processingDelayMs", 0),
    tickMs: positiveInteger(options.tickMs ?? 25, "tickMs", 1),
    rateLimit: options.rateLimit ?? null,
    env: options.env ?? process.env,
    webhookRetryBaseMs: positiveInteger(options.webhookRetryBaseMs ?? 1000, "webhookRetryBaseMs", 1),
    webhookMaxAttempts: positiveInteger(options.webhookMaxAttempts ?? 6, "webhookMaxAttempts", 1),
    workspace: options.workspace ?? "emulator-workspace",
    log: options.log ?? ((line: string) => process.stderr.write(`${line}\n`)),
  };
  const keyProblem = resolved.key === null ? null : localSecretProblem(resolved.key);
  if (keyProblem !== null) throw new RangeError(`key: ${keyProblem}`);
  if (resolved.controlPath === "") throw new RangeError("controlPath: must not be empty");
  if (resolved.port > 65_535) throw new RangeError(`port: must be at most 65535, got ${resolved.port}`);
  if (resolved.seed !== "demo" && resolved.seed !== "empty") throw new RangeError(`seed: must be demo or empty, got ${String(resolved.seed)}`);
  if (resolved.rateLimit && !(resolved.rateLimit.requestsPerSecond > 0)) {
    throw new RangeError("rateLimit.requestsPerSecond: must be greater than 0");
  }
  return resolved;
}
