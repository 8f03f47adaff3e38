import { z } from "zod";

const Rate = z.number().min(0, { message: "must be from 0 to 1" }).max(1, { message: "must be from 0 to 1" });

/** Faults injected into service calls (never into the control plane). Set with PUT {control}/faults. */
export const FaultSettings = z.strictObject({
  /** Added delay before each answer, in real milliseconds. */
  latency_ms: z.int().min(0).max(120_000).default(0),
  /** Share of calls answered with error_status instead of being handled. */
  error_rate: Rate.default(0),
  error_status: z.int().min(400).max(599).default(503),
  /** Share of calls whose connection is closed without an answer, before they are handled. */
  drop_rate: Rate.default(0),
  /** Share of calls that are handled, then their connection is closed without the answer (an ambiguous outcome). */
  drop_after_rate: Rate.default(0),
  /** Share of calls answered 420 with Retry-After. */
  rate_limit_rate: Rate.default(0),
  retry_after_seconds: z.int().min(0).max(3600).default(1),
  /** Only calls with these methods are affected; all when absent. */
  methods: z.array(z.enum(["GET", "POST", "PUT", "DELETE"])).optional(),
  /** Only calls whose path below the base path starts with this are affected. */
  path_prefix: z.string().optional(),
  /** The faults start with the first matching call of this method; the matching calls before it pass unaffected. */
  from_first: z.enum(["GET", "POST", "PUT", "DELETE"]).optional(),
  /** The faults end after affecting this many calls; unlimited when absent. */
  remaining: z.int().min(1).optional(),
});
export type FaultSettings = z.infer<typeof FaultSettings>;

export const NO_FAULTS: FaultSettings = FaultSettings.parse({});
