import { describe, expect, it } from "vitest";
import { timestampToDate, UserRecord } from "../../src/index.js";
import * as ex from "./spec-examples.js";

describe("user record created_on (ISO 8601 with offset)", () => {
  it.each([
    ["2026-10-22T13:04:27.098+00:00", "2026-10-22T13:04:27.098Z"],
    ["2026-10-22T13:04:27.098Z", "2026-10-22T13:04:27.098Z"],
    ["2026-10-22T15:04:27.098+02:00", "2026-10-22T13:04:27.098Z"],
  ])("accepts %s and reads it as %s", (createdOn, instant) => {
    const user = UserRecord.parse({ ...ex.userRecord, created_on: createdOn });
    expect(user.created_on).toBe(createdOn);
    expect(timestampToDate(user.created_on).toISOString()).toBe(instant);
  });

  it("refuses a created_on that is not a timestamp", () => {
    expect(UserRecord.safeParse({ ...ex.userRecord, created_on: "yesterday" }).success).toBe(false);
  });
});
