import { describe, expect, it } from "vitest";
import { withoutSecrets } from "../../src/index.js";

const UUID = "3f2b9c4e-7a1d-4b8e-9f0a-1b2c3d4e5f60";

describe("withoutSecrets", () => {
  it.each([
    ["as given", `no invitation "${UUID}" exists`],
    ["upper-cased", `no invitation ${UUID.toUpperCase()} exists`],
    ["without its dashes", `invitation ${UUID.replaceAll("-", "")}`],
    ["URL-encoded in a path", `/register/${encodeURIComponent(UUID)}`],
    ["percent-encoded dashes", `/register/${UUID.replaceAll("-", "%2D")}`],
    ["with a hidden character shown by the sanitiser", `invitation ${UUID.slice(0, 9)}\\u{200B}${UUID.slice(9)}`],
    ["JSON-escaped", `invitation ${UUID.slice(0, 9)}\\u200b${UUID.slice(9)}`],
    ["spaced out", `invitation ${[...UUID.replaceAll("-", "")].join(" ")}`],
  ])("removes a UUID %s", (_name, text) => {
    const kept = withoutSecrets(text, [UUID]);
    expect(kept).toContain("<redacted>");
    expect(kept.replace(/[^0-9a-f]/gi, "").toLowerCase()).not.toContain(UUID.replaceAll("-", ""));
  });

  it("leaves other text alone, and matches a short secret only as given", () => {
    expect(withoutSecrets("answered HTTP 404: NotFound", [UUID])).toBe("answered HTTP 404: NotFound");
    expect(withoutSecrets("a-b ab AB", ["a-b"])).toBe("<redacted> ab AB");
  });
});
