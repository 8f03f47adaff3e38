import { describe, expect, it } from "vitest";
import { compactSchema, openOutputSchema } from "../src/tools/compact-schema.js";

describe("tools/list schemas, compact", () => {
  it("writes a union of single types as a type list when each keyword applies to one branch only", () => {
    expect(compactSchema({ anyOf: [{ type: "number" }, { type: "string", maxLength: 256 }], description: "d" })).toEqual({ type: ["number", "string"], maxLength: 256, description: "d" });
    // Both branches would take minimum: merged, it would bound the other branch too.
    const shared = { anyOf: [{ type: "number", minimum: 1 }, { type: "integer", minimum: 5 }] };
    expect(compactSchema(shared)).toEqual(shared);
    const nested = { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }] };
    expect(compactSchema(nested)).toEqual(nested);
  });

  it("leaves out what constrains nothing, and keeps what does", () => {
    expect(compactSchema({ type: "object", properties: { a: { type: "object", properties: {}, additionalProperties: {} } }, additionalProperties: false })).toEqual({
      type: "object",
      properties: { a: { type: "object" } },
      additionalProperties: false,
    });
  });

  it("lists an output schema as an open object naming its top-level fields, without error", () => {
    expect(openOutputSchema({ type: "object", properties: { status: { type: "string", enum: ["a"] }, error: { type: "string" } }, required: ["status"], additionalProperties: false })).toEqual({
      type: "object",
      properties: { status: {} },
    });
  });
});
