import { writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../../mcp-server/src/tools/inventory.js";
import { DEMO } from "../../mcp-server/test/harness/demo-workspace.js";
import { call, startTestEmulator } from "../../mcp-server/test/harness/mcp-harness.js";
import { tempDir } from "../../mcp-server/test/harness/temp-dirs.js";
import { connectStdio, expectServesTheDemo, packagesBuiltForThisFile, releaseVersion, unpackedBundle, userEnvironment } from "./built-packages.js";

const built = packagesBuiltForThisFile();
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
}, 60_000);
afterAll(async () => {
  await emulator.close();
});

/** The server a client (Claude Desktop) starts from the manifest's server.mcp_config with the user's settings, resolved by mcpb's own code. */
async function startFromManifest(userConfig: Record<string, string>) {
  const { dir, manifest } = unpackedBundle(built().mcpb);
  const env = userEnvironment();
  const config = await getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: { HOME: env.HOME as string }, userConfig, pathSeparator: sep });
  if (config === undefined) throw new Error("the manifest gave no MCP configuration for these settings");
  const command = config.command === "node" ? process.execPath : config.command;
  return connectStdio(command, config.args ?? [], { ...env, ...config.env }, dir);
}

describe("the MCP bundle (.mcpb), as Claude Desktop installs it", () => {
  it("unpacks and validates with mcpb; its manifest lists every tool and asks for the base URL, operator and policy file", () => {
    const { manifest } = unpackedBundle(built().mcpb);
    expect(manifest.version).toBe(releaseVersion());
    expect(manifest.server.type).toBe("node");
    expect(manifest.tools?.map((tool) => tool.name)).toEqual(ALL_TOOLS.map((tool) => tool.name));
    expect(manifest.tools?.every((tool) => (tool.description?.length ?? 0) > 0)).toBe(true);
    expect(Object.keys(manifest.user_config ?? {})).toEqual(["base_url", "operator", "policy_file"]);
    expect(manifest.user_config?.policy_file?.type).toBe("file");
    expect(manifest.server.mcp_config.env).toEqual({
      CUSTODY_BASE_URL: "${user_config.base_url}",
      CUSTODY_OPERATOR: "${user_config.operator}",
      CUSTODY_POLICY: "${user_config.policy_file}",
    });
  });

  it("starts from its manifest with nothing configured and serves the embedded demo", async () => {
    const { client } = await startFromManifest({});
    try {
      await expectServesTheDemo(client);
    } finally {
      await client.close();
    }
  });

  it("starts from its manifest on the workspace, operator and policy the user configured", async () => {
    const policy = join(tempDir("custody-mcpb-policy-"), "policy.json");
    writeFileSync(policy, JSON.stringify({ toolsets: ["read"] }));
    const { client } = await startFromManifest({ base_url: emulator.baseUrl, operator: DEMO.treasuryBot, policy_file: policy });
    try {
      expect(client.getInstructions()).not.toContain("EMBEDDED DEMO");
      expect(client.getInstructions()).toContain(`acting as API operator ${DEMO.treasuryBot}`);
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain("list_accounts");
      expect(listed).not.toContain("create_transaction");
      expect((await call(client, "health_check")).structured.status).toBe("OK");
    } finally {
      await client.close();
    }
  });
});
