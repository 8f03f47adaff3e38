import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { connectStdio, expectServesTheDemo, installedInUserFolder, packagesBuiltForThisFile, unpackedBundle, userEnvironment } from "./built-packages.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The code block after the README's `<!-- install: NAME ... -->` marker. */
function installBlock(name: string): string {
  const marker = README.indexOf(`<!-- install: ${name} `);
  expect(marker, `README.md has no <!-- install: ${name} --> marker`).toBeGreaterThanOrEqual(0);
  const block = /```\w*\n([\s\S]*?)```/.exec(README.slice(marker));
  if (block?.[1] === undefined) throw new Error(`README.md: no code block after <!-- install: ${name} -->`);
  return block[1];
}

interface Launch {
  command: string;
  args: string[];
}

/** Each client's configuration as the README gives it, as the command and arguments the client launches. */
function readmeLaunches(): Record<string, Launch> {
  const claudeCode = installBlock("claude-code").trim();
  expect(claudeCode).toMatch(/^claude mcp add --transport stdio custody -- /);
  const [command = "", ...args] = claudeCode.split(" -- ")[1]?.split(" ") ?? [];
  const cursor = (JSON.parse(installBlock("cursor")) as { mcpServers: { custody: Launch } }).mcpServers.custody;
  const vscode = (JSON.parse(installBlock("vscode")) as { servers: { custody: Launch & { type: string } } }).servers.custody;
  expect(vscode.type).toBe("stdio");
  return {
    "Claude Code": { command, args },
    Cursor: { command: cursor.command, args: cursor.args },
    "VS Code": { command: vscode.command, args: vscode.args },
  };
}

const built = packagesBuiltForThisFile();

describe("the README's install sections, as each client runs them", () => {
  it(
    "Claude Code, Cursor and VS Code launch the npm package with npx (installed from " + "the tarball, as the registry would serve it) and get the demo",
    async () => {
      const env = userEnvironment();
      const folder = installedInUserFolder(built().tarball, env);
      const launches = readmeLaunches();
      expect(Object.keys(launches)).toHaveLength(3);
      for (const [client, launch] of Object.entries(launches)) {
        expect(launch, client).toEqual({ command: "npx", args: ["-y", "custody-workspace-mcp"] });
        // Offline: npx finds the package installed in the folder and fetches nothing.
        const { client: mcp } = await connectStdio(launch.command, launch.args, { ...env, npm_config_offline: "true" }, folder);
        try {
          await expectServesTheDemo(mcp);
        } finally {
          await mcp.close();
        }
      }
    },
  );

  it("VS Code's .vsix: the README builds it with package:extension into dist-packages/ and installs the file the package script writes", () => {
    const lines = installBlock("vsix").trim().split("\n");
    const vsix = basename(built().vsix);
    expect(lines[0]).toBe(`npx -y pnpm@10.34.8 run build && npx -y pnpm@10.34.8 run package:extension   # dist-packages/${vsix}`);
    expect(lines[1]).toBe(`code --install-extension dist-packages/${vsix}`);
    const scripts = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts["package:extension"]).toBe("node extension/scripts/package.mjs --out dist-packages");
  });

  it("Claude Desktop's paragraph names the bundle's settings and the variables they set", () => {
    const { manifest } = unpackedBundle(built().mcpb);
    for (const [key, setting] of Object.entries(manifest.user_config ?? {})) {
      expect(README).toContain(`**${setting.title}**`);
      const variable = Object.entries(manifest.server.mcp_config.env ?? {}).find(([, value]) => value === `\${user_config.${key}}`)?.[0];
      expect(README).toContain(`\`${variable}\``);
    }
  });
});
