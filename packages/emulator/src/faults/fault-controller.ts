import { NO_FAULTS, type FaultSettings } from "./fault-settings.js";

export type FaultDecision =
  | { kind: "none"; latencyMs: number }
  | { kind: "error"; status: number; latencyMs: number }
  | { kind: "drop" }
  | { kind: "drop_after"; latencyMs: number }
  | { kind: "rate_limit"; retryAfterSeconds: number; latencyMs: number };

/** The faults in force (in memory: they do not survive a restart) and the draw for each call. */
export class FaultController {
  private settings: FaultSettings = NO_FAULTS;
  private affected = 0;
  private started = false;

  constructor(private readonly random: () => number = Math.random) {}

  set(settings: FaultSettings): void {
    this.settings = settings;
    this.affected = 0;
    this.started = settings.from_first === undefined;
  }

  clear(): void {
    this.set(NO_FAULTS);
  }

  current(): FaultSettings & { affected: number } {
    return { ...this.settings, affected: this.affected };
  }

  decide(method: string, path: string): FaultDecision {
    const s = this.settings;
    if (s === NO_FAULTS) return { kind: "none", latencyMs: 0 };
    if (s.methods && !s.methods.includes(method as "GET")) return { kind: "none", latencyMs: 0 };
    if (s.path_prefix !== undefined && !path.startsWith(s.path_prefix)) return { kind: "none", latencyMs: 0 };
    if (!this.started && method !== s.from_first) return { kind: "none", latencyMs: 0 };
    this.started = true;
    if (s.remaining !== undefined && this.affected >= s.remaining) return { kind: "none", latencyMs: 0 };
    this.affected += 1;
    const latencyMs = s.latency_ms;
    if (s.drop_rate > 0 && this.random() < s.drop_rate) return { kind: "drop" };
    if (s.rate_limit_rate > 0 && this.random() < s.rate_limit_rate) {
      return { kind: "rate_limit", retryAfterSeconds: s.retry_after_seconds, latencyMs };
    }
    if (s.error_rate > 0 && this.random() < s.error_rate) return { kind: "error", status: s.error_status, latencyMs };
    if (s.drop_after_rate > 0 && this.random() < s.drop_after_rate) return { kind: "drop_after", latencyMs };
    return { kind: "none", latencyMs };
  }
}
