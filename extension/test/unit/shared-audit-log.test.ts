import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultAuditLogPath } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { buildBundle } from "../../../mcp-server/test/harness/built-bundle.js";
import { RawStdioServer } from "../../../mcp-server/test/harness/raw-stdio-server.js";
import { auditLogLocation, ExtensionAudit } from "../../src/guard/extension-audit.js";
import { fake } from "./support/fake-vscode.js";
import { startHarness, type Harness } from "./support/extension-harness.js";

const VALIDATOR = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";

describe("one default audit log for the extension and the MCP server", () => {
  let harness: Harness | undefined;
  let server: RawStdioServer | undefined;
  let home = "";
  const savedHome = process.env.HOME;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "custody-shared-home-"));
  });
  afterEach(async () => {
    server?.child.kill();
    await harness?.close();
    process.env.HOME = savedHome;
    rmSync(home, { recursive: true, force: true });
  });

  it("a stake from VS Code counts against the daily limit of a server started from the README's configuration, with no audit setting in either", async () => {
    process.env.HOME = home;
    const policy = join(home, "policy.json");
    writeFileSync(policy, JSON.stringify({ limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } }));
    harness = await startHarness({ settings: { "custody.auditLog": "", "custody.policyFile": policy } });
    const shared = join(home, ".custody-mcp", "audit.jsonl");
    expect(defaultAuditLogPath()).toBe(shared);
    fake.script(
      { kind: "pick", label: "sol-treasury" },
      { kind: "input", text: "1.5" },
      { kind: "pick", label: VALIDATOR },
      { kind: "modal", choice: "Submit" },
    );
    await harness.run("custody.solana.createStake");

    // The server as a client configuration starts it: base URL, operator and policy, nothing about the audit log.
    server = new RawStdioServer(buildBundle(), {
      HOME: home,
      TMPDIR: home,
      CUSTODY_BASE_URL: harness.baseUrl,
      CUSTODY_OPERATOR: harness.operator,
      CUSTODY_POLICY: policy,
    });
    await server.initialize();
    server.callTool(1, "solana_create_stake", { account: "sol-treasury", amount: "1", unit: "SOL", validator: VALIDATOR });
    const answer = await server.answer(1);
    const structured = answer.result?.structuredContent as { status: string; checks: { code: string; severity: string }[] };
    expect(structured.status).toBe("blocked");
    expect(structured.checks.filter((check) => check.severity === "block").map((check) => check.code)).toEqual(["POLICY_MAX_PER_DAY"]);
    expect(server.stderr).toContain(`audit log: ${shared}`);
    expect(readFileSync(shared, "utf8")).toContain('"surface":"vscode"');
    expect(fake.output.join("\n")).toContain(`Audit log: ${shared} (the default the MCP server shares)`);
  }, 60_000);

  it("keeps the extension's earlier log for 25 hours from this version's first start, however often it is written, then moves to the shared default", () => {
    process.env.HOME = home;
    const storage = join(home, "storage");
    const shared = { path: join(home, ".custody-mcp", "audit.jsonl"), why: "default" };
    expect(auditLogLocation(storage, "")).toEqual(shared);
    const earlier = join(storage, "audit", "custody-vscode-audit.jsonl");
    mkdirSync(join(storage, "audit"), { recursive: true });
    writeFileSync(earlier, "");
    const start = Date.now();
    const hour = 60 * 60 * 1000;
    expect(auditLogLocation(storage, "", start)).toEqual({ path: earlier, why: "earlier_log" });
    // The person writes from VS Code every 20 hours: each write changes the earlier log.
    for (const hours of [20, 24]) {
      const written = new Date(start + hours * hour);
      utimesSync(earlier, written, written);
      expect(auditLogLocation(storage, "", start + hours * hour)).toEqual({ path: earlier, why: "earlier_log" });
    }
    const lastWrite = new Date(start + 24.5 * hour);
    utimesSync(earlier, lastWrite, lastWrite);
    expect(auditLogLocation(storage, "", start + 25 * hour)).toEqual(shared);
    expect(auditLogLocation(storage, "", start + 40 * hour)).toEqual(shared);
  });

  it("moves at once to the shared default when the earlier log was last written over 25 hours ago", () => {
    process.env.HOME = home;
    const storage = join(home, "storage");
    const earlier = join(storage, "audit", "custody-vscode-audit.jsonl");
    mkdirSync(join(storage, "audit"), { recursive: true });
    writeFileSync(earlier, "");
    const dayAndAHalfAgo = new Date(Date.now() - 36 * 60 * 60 * 1000);
    utimesSync(earlier, dayAndAHalfAgo, dayAndAHalfAgo);
    expect(auditLogLocation(storage, "")).toEqual({ path: join(home, ".custody-mcp", "audit.jsonl"), why: "default" });
    // Written again (say by an older version in another window), it does not come back into use.
    writeFileSync(earlier, "");
    expect(auditLogLocation(storage, "")).toEqual({ path: join(home, ".custody-mcp", "audit.jsonl"), why: "default" });
    expect(auditLogLocation(storage, "~/logs/audit.jsonl")).toEqual({ path: join(home, "logs", "audit.jsonl"), why: "setting" });
    const relative = auditLogLocation(storage, "logs/audit.jsonl");
    expect(relative).toMatchObject({
      path: join(home, ".custody-mcp", "audit.jsonl"),
      problem: "custody.auditLog must be an absolute path (or start with ~/)",
    });
    expect(() => new ExtensionAudit(relative).store()).toThrow(
      "custody.auditLog must be an absolute path (or start with ~/): nothing is written or sent until it names a file",
    );
    expect(existsSync(join(home, ".custody-mcp"))).toBe(false);
  });
});
