// server.json, what the MCP registry publishes about the server: the npm package over stdio and the
// environment a user sets (the registry's schema 2025-12-11; test/packages/server-json.test.ts checks it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE, SERVER_SETTINGS } from "./release.mjs";

export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

export function serverJson() {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: RELEASE.registryName,
    title: RELEASE.displayName,
    description: RELEASE.description,
    version: RELEASE.version,
    packages: [
      {
        registryType: "npm",
        identifier: RELEASE.npmName,
        version: RELEASE.version,
        runtimeHint: "npx",
        transport: { type: "stdio" },
        environmentVariables: SERVER_SETTINGS.map((setting) => ({
          name: setting.env,
          description: setting.description,
          isRequired: false,
          isSecret: setting.secret === true,
          format: setting.type === "file" ? "filepath" : "string",
        })),
      },
    ],
  };
}

/** Writes server.json into `outdir`; returns its path. */
export function writeServerJson(outdir) {
  const path = join(outdir, "server.json");
  writeFileSync(path, `${JSON.stringify(serverJson(), null, 2)}\n`);
  return path;
}
