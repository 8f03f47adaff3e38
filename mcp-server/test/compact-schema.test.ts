import { describe, expect, it } from "vitest";
import { compactSchema } from "../src/tools/compact-schema.js";

describe("tools/list schemas, compact", () => {
  it("writes a type list as single-type branches, each keyword in the branch of its type", () => {
    expect(compactSchema({ type: ["string", "null"], maxLength: 256, description: "d" })).toEqual({
      anyOf: [{ type: "string", maxLength: 256 }, { type: "null" }],
      description: "d",
    });
    expect(compactSchema({ type: "object", properties: { a: { type: ["number", "string"], minimum: 1, pattern: "x" } } })).toEqual({
      type: "object",
      properties: {
        a: {
          anyOf: [
            { type: "number", minimum: 1 },
            { type: "string", pattern: "x" },
          ],
        },
      },
    });
  });

  it("leaves out what constrains nothing, and keeps what does", () => {
    expect(
      compactSchema({ type: "object", properties: { a: { type: "object", properties: {}, additionalProperties: {} } }, additionalProperties: false }),
    ).toEqual({
      type: "object",
      properties: { a: { type: "object" } },
      additionalProperties: false,
    });
  });

  it("keeps an output schema's objects open, their fields typed", () => {
    const output = {
      type: "object",
      properties: { status: { type: "string", enum: ["a"] }, b: { type: "object", properties: { c: { type: "number" } }, additionalProperties: false } },
      additionalProperties: false,
    };
    expect(compactSchema(output, true)).toEqual({
      type: "object",
      properties: { status: { type: "string", enum: ["a"] }, b: { type: "object", properties: { c: { type: "number" } } } },
    });
  });
});
