import { describe, expect, it } from "vitest";
import { backoffDelayMs, parseRetryAfterMs, retryWaitMs } from "../../src/client/retry-delay.js";

describe("retry delays", () => {
  it("reads Retry-After as seconds or as an HTTP date, and nothing else", () => {
    const now = Date.parse("2024-03-01T10:00:00Z");
    expect(parseRetryAfterMs("3", now)).toBe(3_000);
    expect(parseRetryAfterMs(" 0 ", now)).toBe(0);
    expect(parseRetryAfterMs("Fri, 01 Mar 2024 10:00:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfterMs("Fri, 01 Mar 2024 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfterMs("1.5", now)).toBeNull();
    expect(parseRetryAfterMs("-1", now)).toBeNull();
    expect(parseRetryAfterMs("soon", now)).toBeNull();
    expect(parseRetryAfterMs(null, now)).toBeNull();
  });

  it("draws full jitter under a ceiling that doubles per retry and is capped", () => {
    expect([0, 1, 2, 3].map((retry) => backoffDelayMs(retry, 100, 500, () => 0.5))).toEqual([50, 100, 200, 250]);
    expect(backoffDelayMs(10, 100, 500, () => 0)).toBe(0);
    expect(backoffDelayMs(0, 100, 500, () => 0.999)).toBe(99);
  });

  it("prefers the service's Retry-After, capped by maxDelayMs", () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 2_000, random: () => 0.5 };
    expect(retryWaitMs(0, 1_000, policy)).toBe(1_000);
    expect(retryWaitMs(0, 60_000, policy)).toBe(2_000);
    expect(retryWaitMs(1, null, policy)).toBe(100);
  });
});
