import { chmodSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileCacheDirectory, privateDirectory } from "../src/cli/compile-cache.js";
import { tempDir } from "./harness/temp-dirs.js";

describe("the compile cache's directory", () => {
  it("is the user's cache directory: $XDG_CACHE_HOME when absolute, else ~/.cache; the platform's own on macOS and Windows", () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/a")).toBe("/x/cache/custody-mcp/compile-cache");
    expect(compileCacheDirectory({ XDG_CACHE_HOME: "relative" }, "linux", "/home/a")).toBe("/home/a/.cache/custody-mcp/compile-cache");
    expect(compileCacheDirectory({}, "linux", "/home/a")).toBe("/home/a/.cache/custody-mcp/compile-cache");
    expect(compileCacheDirectory({}, "darwin", "/Users/a")).toBe("/Users/a/Library/Caches/custody-mcp/compile-cache");
  });

  it("is created readable by its owner only, and refused when others may write into it", () => {
    const created = join(tempDir("custody-compile-cache-"), "cache", "custody-mcp", "compile-cache");
    expect(privateDirectory(created)).toBe(true);
    expect(statSync(created).mode & 0o777).toBe(0o700);
    const shared = join(tempDir("custody-compile-cache-"), "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(privateDirectory(shared)).toBe(false);
    chmodSync(shared, 0o775);
    expect(privateDirectory(shared)).toBe(false);
    chmodSync(shared, 0o755);
    expect(privateDirectory(shared)).toBe(true);
  });
});
