import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../mcp-server/test/harness/temp-dirs.js";
import { freePort } from "../support/free-port.js";
import {
  connectStdio,
  expectServesTheDemo,
  installedInUserFolder,
  packagesBuiltForThisFile,
  releaseVersion,
  rootManifest,
  userEnvironment,
} from "./built-packages.js";

const built = packagesBuiltForThisFile();

describe("the npm package, as a user installs it", () => {
  it("installs offline into an empty folder (no dependency to fetch) and serves the embedded demo over stdio", async () => {
    const env = userEnvironment();
    const project = installedInUserFolder(built().tarball, env);
    const installed = join(project, "node_modules", "custody-workspace-mcp");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: "custody-workspace-mcp",
      version: releaseVersion(),
      bin: { "custody-mcp": "bin/custody-mcp.js" },
      engines: rootManifest().engines,
      license: rootManifest().license,
    });
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

  it("has the PostgreSQL client for a team's store in it: a store URL is tried, not a module missing", async () => {
    const env = userEnvironment();
    const project = installedInUserFolder(built().tarball, env);
    const port = await freePort();
    const result = spawnSync(
      join(project, "node_modules", ".bin", "custody-mcp"),
      ["verify-audit", "--store", `postgres://auditor:secret@127.0.0.1:${port}/custody`],
      { cwd: project, env, encoding: "utf8" },
    );
    // verify-audit reports on stdout, a store it cannot reach too (exit 2), with the password hidden.
    expect(result.status).toBe(2);
    expect(result.stdout).toContain(`postgres://auditor:***@127.0.0.1:${port}/custody: connect ECONNREFUSED`);
    expect(result.stdout + result.stderr).not.toContain("secret");
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
