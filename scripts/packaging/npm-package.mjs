// The MCP server as a public npm package: the bundle that `pnpm run build` made (entry and chunks,
// without source maps) and a manifest of its own. The bundle carries every module it runs, pg for a
// PostgreSQL store included, so the package has no dependencies (docs/packaging.md).
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtServer, RELEASE, REPO_ROOT, SERVER_SETTINGS } from "./release.mjs";

/** The package.json of the published package (the workspace's @custody/mcp-server stays private). */
export function npmManifest() {
  return {
    name: RELEASE.npmName,
    version: RELEASE.version,
    description: RELEASE.description,
    license: RELEASE.license,
    author: RELEASE.author,
    keywords: RELEASE.keywords,
    type: "module",
    bin: { "custody-mcp": "bin/custody-mcp.js" },
    files: ["bin", "dist"],
    engines: { node: RELEASE.node },
    // The MCP registry checks that the npm package names the server it publishes.
    mcpName: RELEASE.registryName,
  };
}

/** The server's files in `dir` as every package lays them out: bin/custody-mcp.js runs dist/custody-mcp.js. */
export function copyServer(dir) {
  const server = builtServer();
  mkdirSync(join(dir, "bin"), { recursive: true });
  mkdirSync(join(dir, "dist"), { recursive: true });
  copyFileSync(server.bin, join(dir, "bin", "custody-mcp.js"));
  copyFileSync(server.entry, join(dir, "dist", "custody-mcp.js"));
  cpSync(server.chunks, join(dir, "dist", "chunks"), { recursive: true, filter: (source) => !source.endsWith(".map") });
}

/** The package's README: npm-README.md with the settings' table filled in from SERVER_SETTINGS. */
export function npmReadme() {
  const rows = SERVER_SETTINGS.map((setting) => `| \`${setting.env}\` | ${setting.description} |`);
  const table = ["| Environment | Meaning |", "| --- | --- |", ...rows].join("\n");
  return readFileSync(join(REPO_ROOT, "scripts", "packaging", "npm-README.md"), "utf8").replace("<!-- settings -->", table);
}

/** Packs the package with npm into `outdir`; returns the tarball's path. */
export function writeNpmPackage(outdir) {
  const stage = mkdtempSync(join(tmpdir(), "custody-npm-package-"));
  try {
    copyServer(stage);
    writeFileSync(join(stage, "README.md"), npmReadme());
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(npmManifest(), null, 2)}\n`);
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", outdir], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
    );
    return join(outdir, packed[0].filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
