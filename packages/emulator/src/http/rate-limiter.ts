import type { RateLimitOptions } from "../options.js";

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per caller; answers how many seconds to wait when the caller is over the limit. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = options.burst ?? options.requestsPerSecond;
  }

  /** 0 when the call may go ahead, else the whole seconds to wait (at least 1). */
  take(caller: string): number {
    const now = this.now();
    const bucket = this.buckets.get(caller) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.options.requestsPerSecond);
    bucket.at = now;
    this.buckets.set(caller, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.options.requestsPerSecond));
  }

  get limit(): number {
    return this.options.requestsPerSecond;
  }
}
