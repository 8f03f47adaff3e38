// The MCP bundle (.mcpb) that Claude Desktop installs with a click: the server's files, and a
// manifest whose user configuration (base URL, operator, policy file) the client maps onto the
// server's environment. Validated and packed with @anthropic-ai/mcpb's own CLI.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { toolListings } from "../../mcp-server/tool-listings.mjs";
import { copyServer } from "./npm-package.mjs";
import { RELEASE, SERVER_SETTINGS } from "./release.mjs";

/** The mcpb CLI (`mcpb validate`, `mcpb pack`, `mcpb unpack`), run with this Node. */
export const MCPB_CLI = join(dirname(createRequire(import.meta.url).resolve("@anthropic-ai/mcpb/cli")), "cli", "cli.js");

export async function mcpbManifest() {
  const asked = SERVER_SETTINGS.filter((setting) => setting.userConfig !== null);
  // The app-only tools (the confirmation view's) are never shown to a model: not in the manifest either.
  const tools = (await toolListings()).filter((listing) => listing.appOnly !== true).map(({ tool }) => ({ name: tool.name, description: tool.description }));
  return {
    manifest_version: "0.3",
    name: RELEASE.bundleName,
    display_name: RELEASE.displayName,
    version: RELEASE.version,
    description: RELEASE.description,
    author: { name: RELEASE.author },
    license: RELEASE.license,
    keywords: RELEASE.keywords,
    server: {
      type: "node",
      entry_point: "bin/custody-mcp.js",
      mcp_config: {
        command: "node",
        args: ["${__dirname}/bin/custody-mcp.js"],
        env: Object.fromEntries(asked.map((setting) => [setting.env, `\${user_config.${setting.userConfig}}`])),
      },
    },
    tools,
    compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: RELEASE.node } },
    // Every setting defaults to empty, which the server reads as unset: a client leaves an unset
    // optional setting's ${user_config.…} in the environment as written, which is no base URL.
    user_config: Object.fromEntries(
      asked.map((setting) => [
        setting.userConfig,
        { type: setting.type, title: setting.title, description: setting.description, required: false, default: "" },
      ]),
    ),
  };
}

function mcpb(args) {
  execFileSync(process.execPath, [MCPB_CLI, ...args], { stdio: ["ignore", process.stderr, process.stderr] });
}

/** Validates and packs the bundle into `outdir`; returns the .mcpb's path. */
export async function writeMcpBundle(outdir) {
  const stage = mkdtempSync(join(tmpdir(), "custody-mcpb-"));
  try {
    copyServer(stage);
    const manifest = await mcpbManifest();
    writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    mcpb(["validate", join(stage, "manifest.json")]);
    const out = join(outdir, `${manifest.name}-${manifest.version}.mcpb`);
    mcpb(["pack", stage, out]);
    return out;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
