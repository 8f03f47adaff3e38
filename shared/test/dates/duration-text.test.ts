import { describe, expect, it } from "vitest";
import { durationText, whenText } from "../../src/dates/duration-text.js";
import { unbondingChunks } from "../../src/dates/polkadot-unlocks.js";

describe("durations and moments say their unit", () => {
  it.each([
    [518_331, "5 d 23 h"],
    [86_400 * 28, "28 d"],
    [3_600 * 5 + 180, "5 h 3 min"],
    [7_200, "2 h"],
    [42, "42 s"],
    [0, "now"],
  ])("%i s is %s", (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });

  it("dates a moment to the minute in UTC with how far it is", () => {
    const now = new Date("2031-01-01T00:00:00Z");
    expect(whenText(new Date("2031-01-03T12:30:00Z"), now)).toBe("2031-01-03T12:30Z (in 2 d 12 h)");
    expect(whenText(now, now)).toBe("2031-01-01T00:00Z (now)");
  });

  it("dates each Polkadot unbonding chunk from the service's now, soonest first", () => {
    const now = new Date("2031-01-01T00:00:00Z");
    const chunks = unbondingChunks(
      {
        unbonding: [
          { amount: 5n, waiting_time: 86_400 },
          { amount: 7n, waiting_time: 60 },
        ],
      },
      now,
    );
    expect(chunks.map((chunk) => [chunk.amount, chunk.unlocks_at.toISOString()])).toEqual([
      [7n, "2031-01-01T00:01:00.000Z"],
      [5n, "2031-01-02T00:00:00.000Z"],
    ]);
  });
});
