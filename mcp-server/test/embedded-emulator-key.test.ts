import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { ErrorBody, newLocalSecret } from "@custody/shared";
import { describe, expect, it } from "vitest";
import { readCommand, type ServerConfig } from "../src/config/server-config.js";
import { startContext } from "../src/assembly/start-context.js";
import { tempDir } from "./harness/temp-dirs.js";

function serveConfig(argv: string[], env: Record<string, string> = {}): ServerConfig {
  const command = readCommand(argv, { CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-key-"), "audit.jsonl"), ...env });
  if (command.command !== "serve") throw new Error("not a serve command");
  return command.config;
}

async function health(baseUrl: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/_health`, { headers: { "x-vendor-api-user": "treasury-bot", ...headers } });
  return { status: response.status, body: await response.json() };
}

describe("the emulator's key", () => {
  it("the embedded emulator is reachable only by this process: a request without its key is refused, the server's own calls carry it", async () => {
    const lines: string[] = [];
    const started = await startContext(serveConfig([]), (line) => lines.push(line));
    try {
      const refused = await health(started.ctx.baseUrl);
      expect(refused.status).toBe(401);
      expect(ErrorBody.parse(refused.body).name).toBe("EmulatorKeyRequired");
      expect((await health(started.ctx.baseUrl, { "x-emulator-key": newLocalSecret() })).status).toBe(403);
      const ctx = await started.ctx.load();
      expect((await ctx.client.health()).status).toBe("OK");
      expect(lines.join("\n")).toContain(`started the emulator in-process at ${started.ctx.baseUrl}`);
    } finally {
      await started.close();
    }
  });

  it("with a base URL, sends the key held in --emulator-key-file (CUSTODY_EMULATOR_KEY_FILE) to an emulator started with one", async () => {
    const key = newLocalSecret();
    const emulator = await startEmulator({ dataDir: null, port: 0, key, log: () => {} });
    const dir = tempDir("custody-mcp-key-");
    writeFileSync(join(dir, "key"), `${key}\n`, { mode: 0o600 });
    try {
      const withKey = await startContext(
        serveConfig(["--base-url", emulator.baseUrl, "--operator", "treasury-bot"], { CUSTODY_EMULATOR_KEY_FILE: join(dir, "key") }),
        () => {},
      );
      expect((await (await withKey.ctx.load()).client.health()).status).toBe("OK");
      const without = await startContext(serveConfig(["--base-url", emulator.baseUrl, "--operator", "treasury-bot"]), () => {});
      await expect((await without.ctx.load()).client.health()).rejects.toThrow(/HTTP 401: .*EmulatorKeyRequired/);
      writeFileSync(join(dir, "weak"), "weak-key", { mode: 0o600 });
      await expect(
        startContext(serveConfig(["--base-url", emulator.baseUrl, "--operator", "treasury-bot", "--emulator-key-file", join(dir, "weak")]), () => {}),
      ).rejects.toThrow(/^--emulator-key-file \(CUSTODY_EMULATOR_KEY_FILE\): the key in .*weak must be 32 to 1024 printable ASCII characters/);
    } finally {
      await emulator.close();
    }
  });
});
