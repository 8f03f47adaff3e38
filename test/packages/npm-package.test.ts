import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../mcp-server/test/harness/temp-dirs.js";
import { connectStdio, installedInUserFolder, expectServesTheDemo, releaseVersion, rootManifest, userEnvironment, packagesBuiltForThisFile } from "./built-packages.js";

const built = packagesBuiltForThisFile();

describe("the npm package, as a user installs it", () => {
  it("installs offline into an empty folder (no dependency to fetch) and serves the embedded demo over stdio", async () => {
    const env = userEnvironment();
    const project = installedInUserFolder(built().tarball, env);
    const installed = join(project, "node_modules", "custody-workspace-mcp");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "custody-workspace-mcp", version: releaseVersion(), bin: { "custody-mcp": "bin/custody-mcp.js" }, engines: rootManifest().engines, license: rootManifest().license });
    expect(manifest).not.toHaveProperty("private");
    expect(manifest).not.toHaveProperty("dependencies");
    expect(readFileSync(join(installed, "README.md"), "utf8")).toContain("CUSTODY_BASE_URL");

    const { client } = await connectStdio(join(project, "node_modules", ".bin", "custody-mcp"), [], env, project);
    try {
      await expectServesTheDemo(client);
    } finally {
      await client.close();
    }
  });

  it("runs with npx from the tarball, as a client configuration launches it", async () => {
    const folder = tempDir("custody-npx-user-");
    const { client } = await connectStdio("npx", ["-y", "--offline", "--package", built().tarball, "custody-mcp"], userEnvironment(), folder);
    try {
      await expectServesTheDemo(client);
    } finally {
      await client.close();
    }
  });
});
