import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { USAGE } from "../../mcp-server/src/config/server-config.js";
import { packagesBuiltForThisFile, releaseVersion, tarballManifest } from "./built-packages.js";
import { serverJsonSchema } from "./server-json-schema.js";

const built = packagesBuiltForThisFile();

describe("server.json for the MCP registry", () => {
  it("follows the registry's schema and names the npm package over stdio, at the package's version", () => {
    const server = serverJsonSchema.parse(JSON.parse(readFileSync(built().serverJson, "utf8")));
    expect(server.$schema).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    expect(server.name).toMatch(/^io\.github\.[^/]+\/custody-workspace-mcp$/);
    const npm = tarballManifest(built().tarball);
    expect(server.version).toBe(releaseVersion());
    expect(server.packages).toEqual([
      expect.objectContaining({ registryType: "npm", identifier: npm.name, version: npm.version, transport: { type: "stdio" } }),
    ]);
    // The registry publishes an npm server only if the package names it (package.json's mcpName).
    expect(npm.mcpName).toBe(server.name);
  });

  it("lists the environment a user sets: base URL, operator, policy and store, each one the server reads", () => {
    const server = serverJsonSchema.parse(JSON.parse(readFileSync(built().serverJson, "utf8")));
    const variables = server.packages[0]?.environmentVariables ?? [];
    expect(variables.map((variable) => variable.name)).toEqual(["CUSTODY_BASE_URL", "CUSTODY_OPERATOR", "CUSTODY_POLICY", "CUSTODY_STORE"]);
    for (const variable of variables) {
      expect(USAGE).toContain(`[${variable.name}]`);
      expect(variable.description?.length).toBeGreaterThan(20);
      expect(variable.isRequired).toBe(false);
    }
    expect(variables.find((variable) => variable.name === "CUSTODY_POLICY")?.format).toBe("filepath");
    // A postgres:// store URL carries a password.
    expect(variables.find((variable) => variable.name === "CUSTODY_STORE")?.isSecret).toBe(true);
  });
});
