import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatedKey } from "../../src/json/repeated-key.js";

describe("repeatedKey", () => {
  it("finds a key one object names twice, with its path, whatever its spelling, at any depth", () => {
    expect(repeatedKey('{"read_only":true,"read_only":false}')).toEqual({ key: "read_only", path: "read_only", outermost: true });
    expect(repeatedKey('{"limits":{"polkadot":{"max_per_day":"1","max_per_day":"9"}}}')).toEqual({
      key: "max_per_day",
      path: "limits.polkadot.max_per_day",
      outermost: false,
    });
    expect(repeatedKey('{"method":"tools/list","\\u006dethod":"tools/call"}')?.key).toBe("method");
    expect(repeatedKey('{"roles":[{"name":"a"},{"name":"b","tools":{"x":1,"x":2}}]}')?.path).toBe("roles.tools.x");
    expect(repeatedKey(`${"[".repeat(100_000)}{"a":1,"a":2}${"]".repeat(100_000)}`)?.key).toBe("a");
  });

  it("finds none where each object names each key once: equal keys in sibling objects, keys inside strings, escaped quotes", () => {
    expect(repeatedKey('[{"a":1},{"a":2}]')).toBeNull();
    expect(repeatedKey('{"a":{"b":1},"b":{"a":2}}')).toBeNull();
    expect(repeatedKey('{"a":"\\"a\\":1,","b":"\\\\","c":["a","a"]}')).toBeNull();
  });

  it("agrees with JSON.parse: text JSON.stringify writes never repeats a key; one key written again is found", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), (object) => {
        const text = JSON.stringify(object);
        expect(repeatedKey(text)).toBeNull();
        const [key, value] = Object.entries(object)[0] as [string, unknown];
        expect(repeatedKey(`${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value) ?? "null"}}`)?.key).toBe(key);
      }),
    );
  });
});
