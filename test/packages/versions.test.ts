import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_VERSION } from "../../mcp-server/src/server/server-identity.js";
import { packagesBuiltForThisFile, releaseVersion, tarballManifest, unpackedBundle, vsixManifest } from "./built-packages.js";

const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const versionIn = (manifest: string) => (JSON.parse(repoFile(manifest)) as { version: string }).version;

const built = packagesBuiltForThisFile();

describe("one version for the packages", () => {
  it("the npm package, server.json, the MCP bundle and the .vsix carry the root package.json's version", () => {
    const version = releaseVersion();
    const serverJson = JSON.parse(readFileSync(built().serverJson, "utf8")) as { version: string; packages: { version: string }[] };
    expect({
      npm: tarballManifest(built().tarball).version,
      serverJson: serverJson.version,
      serverJsonPackage: serverJson.packages[0]?.version,
      mcpb: unpackedBundle(built().mcpb).manifest.version,
      vsix: vsixManifest(built().vsix).version,
    }).toEqual({ npm: version, serverJson: version, serverJsonPackage: version, mcpb: version, vsix: version });
  });

  it("the copies kept by hand agree with it: the extension, the workspace packages and the version the server reports", () => {
    const version = releaseVersion();
    const copies = {
      extension: versionIn("extension/package.json"),
      mcpServer: versionIn("mcp-server/package.json"),
      shared: versionIn("shared/package.json"),
      emulator: versionIn("packages/emulator/package.json"),
      serverIdentity: SERVER_VERSION,
    };
    expect(copies).toEqual(Object.fromEntries(Object.keys(copies).map((key) => [key, version])));
  });

  it("CHANGELOG.md keeps a changelog: [Unreleased] first, then the packages' version if it has been released", () => {
    const headings = [...repoFile("CHANGELOG.md").matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);
    expect(headings[0]).toBe("Unreleased");
    if (headings.length > 1) expect(headings[1]).toBe(releaseVersion());
  });
});
