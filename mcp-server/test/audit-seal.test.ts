import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import type { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plant, withPlanted } from "../../shared/test/files/planted-files.js";
import { buildBundle } from "./harness/built-bundle.js";
import { accountNamed, DEMO } from "./harness/demo-workspace.js";
import { blockingCodes } from "./harness/guarded-write.js";
import { call, startTestEmulator, testClient } from "./harness/mcp-harness.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";

// Point 5 of issue 18, through the built server, a real MCP client over stdio and the emulator:
// a log cut short at its end, or a ledger emptied, stops the server naming what does not match its
// seal; verify-audit says so; a person's reseal-audit lets it start again.

let emulator: RunningEmulator;
let bundle: string;

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
}, 120_000);
afterAll(async () => {
  await emulator.close();
});

interface Store {
  dir: string;
  log: string;
  env: Record<string, string>;
}

/** A person's store: the audit log, the seal key beside the token secret (outside the log's folder), a daily maximum of 1 SOL. */
function freshStore(): Store {
  const dir = tempDir("custody-seal-");
  const policy = join(dir, "policy.json");
  writeFileSync(policy, JSON.stringify({ limits: { solana_testnet: { max_per_day: { amount: "1", unit: "SOL" } } } }));
  const home = childHome();
  const key = join(home.HOME, "keys", "audit-seal.key");
  mkdirSync(dirname(key));
  writeFileSync(key, randomBytes(32), { mode: 0o600 });
  const log = join(dir, "audit", "audit.jsonl");
  const env = {
    PATH: process.env.PATH ?? "",
    ...home,
    CUSTODY_BASE_URL: emulator.baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: log,
    CUSTODY_POLICY: policy,
    CUSTODY_AUDIT_SEAL_KEY_FILE: key,
  };
  return { dir, log, env };
}

async function connected(store: Store): Promise<Client> {
  const client = testClient();
  const transport = new StdioClientTransport({ command: process.execPath, args: [bundle], env: store.env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`the server did not start: ${stderr}`, { cause: error });
  }
  return client;
}

/** One client session with a server of its own: `work`, then the client closes (and the server ends with its stdin). */
async function session<T>(store: Store, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await connected(store);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

async function sendSol(client: Client, amount: string) {
  const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
  const args = { account: DEMO.solTreasury, recipient, amount, unit: "SOL" };
  const dry = await call(client, "create_transaction", args);
  if (dry.structured.status !== "dry_run") return dry;
  return call(client, "create_transaction", { ...args, confirmation_token: dry.token });
}

function cli(store: Store, args: string[]) {
  // Bounded: a server that started instead of refusing (an HTTP one does not end with its stdin) fails the test rather than holds it.
  const result = spawnSync(process.execPath, [bundle, ...args], { encoding: "utf8", env: store.env, input: "", timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A start of the server with stdin closed at once: one whose store is refused ends with
 * status 2 and the message; a sound one serves, then ends at the end of stdin.
 */
function start(store: Store) {
  return cli(store, []);
}

describe("the audit log's sealed tail", () => {
  it(
    "a log cut short at its end stops the server naming the log and its seal; verify-audit " +
      "says shortened; reseal-audit, after a person looked, lets it start",
    async () => {
      const store = freshStore();
      expect((await session(store, (client) => sendSol(client, "0.6"))).structured.status).toBe("submitted");
      expect(cli(store, ["verify-audit", store.log])).toMatchObject({
        status: 0,
        stdout: expect.stringContaining("seal: holds its sealed record 4 (its MAC checked with the seal key)"),
      });

      // The write's `reserved` and `submitted` lines cut from the end: the day's 0.6 SOL and the write are gone from the log.
      const lines = readFileSync(store.log, "utf8").split("\n");
      expect(lines.slice(0, 5).map((line) => (JSON.parse(line) as { event: string }).event)).toEqual([
        "sealed",
        "dry_run",
        "confirmed",
        "reserved",
        "submitted",
      ]);
      const cut = `${lines.slice(0, 3).join("\n")}\n`;
      writeFileSync(store.log, cut);

      const refused = start(store);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(
        `audit log ${store.log} was shortened: it holds ${Buffer.byteLength(cut)} bytes, but its seal ${store.log}.seal says its last line is record 4`,
      );
      expect(refused.stderr).toContain(`custody-mcp reseal-audit ${store.log}`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);

      const verified = cli(store, ["verify-audit", store.log]);
      expect(verified.status).toBe(1);
      expect(verified.stdout).toMatch(
        /^SHORTENED: the chain is intact but ends at record 2 \(3 records, [0-9]+ bytes\); its seal says its last record is record 4, ending at byte [0-9]+ .*records were cut from its end\n$/,
      );

      const resealed = cli(store, ["reseal-audit", store.log]);
      expect(resealed.status, resealed.stdout + resealed.stderr).toBe(0);
      expect(resealed.stdout).toMatch(
        /^resealed .* sealed record 3\n {2}the store held: last record 2, [0-9]+ bytes\n {2}the seal it replaces said: last record 4, [0-9]+ bytes \(key id [0-9a-f]{16}\)\n$/,
      );
      expect(cli(store, ["verify-audit", store.log])).toMatchObject({
        status: 0,
        stdout: expect.stringMatching(/^ok: 4 records, chain intact[^]*seal: holds its sealed record 3 \(its MAC checked/),
      });
      expect(start(store).status).toBe(0);
    },
    60_000,
  );

  it(
    "a log removed whole (its lines, seal and ledger) does not start afresh: the seal key's " +
      "register names it; reseal-audit, after a person looked, lets it start",
    async () => {
      const store = freshStore();
      // An amount of its own: the other tests' sends, from other stores, are in the workspace.
      expect((await session(store, (client) => sendSol(client, "0.55"))).structured.status).toBe("submitted");
      for (const file of [store.log, `${store.log}.seal`, `${store.log}.ledger.json`]) rmSync(file, { force: true });

      const refused = start(store);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(
          `audit log ${store.log}: the seal key's register ` +
            ".*/keys/sealed-logs/[0-9a-f]{32}\\.json says this log was sealed through record 4 " +
            `\\(hash [0-9a-f]{12}…\\), but the log is missing and has no seal ${store.log}\\.seal`,
        ),
      );
      expect(refused.stderr).toContain(`custody-mcp reseal-audit ${store.log}`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);

      const resealed = cli(store, ["reseal-audit", store.log]);
      expect(resealed.status, resealed.stdout + resealed.stderr).toBe(0);
      expect(start(store).status).toBe(0);
    },
    60_000,
  );

  it(
    "a ledger whose totals and traces were emptied stops the server naming it; " + "reseal-audit rebuilds it from the log, so the day's maximum still holds",
    async () => {
      const store = freshStore();
      expect((await session(store, (client) => sendSol(client, "0.7"))).structured.status).toBe("submitted");
      // A second session: its store's first open builds and saves the ledger; a dry run is all it does.
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      const dry = await session(store, (client) => call(client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "0.1", unit: "SOL" }));
      expect(dry.structured.status).toBe("dry_run");
      const ledgerPath = `${store.log}.ledger.json`;
      const ledger = JSON.parse(readFileSync(ledgerPath, "utf8")) as { committed: unknown[]; traces: unknown[] };
      expect(ledger.committed).toHaveLength(1);
      writeFileSync(ledgerPath, JSON.stringify({ ...ledger, committed: [], traces: [] }));

      const refused = start(store);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`audit log ${store.log}: its ledger ${ledgerPath} does not match its seal (its totals or write traces were edited)`);
      const verified = cli(store, ["verify-audit", store.log]);
      expect(verified.status).toBe(1);
      expect(verified.stdout).toMatch(/^SEAL NOT TRUSTED: .*its ledger .* does not match its seal/);

      expect(cli(store, ["reseal-audit", store.log]).status).toBe(0);
      // The 0.7 SOL sent is counted again (the ledger was rebuilt from the log, not taken as edited): another 0.7 would pass the
      // day's 1 SOL (an amount of its own: the first test's identical send, from another store, is in the workspace).
      const again = await session(store, (client) => sendSol(client, "0.7"));
      expect(blockingCodes(again.structured)).toContain("POLICY_MAX_PER_DAY");
    },
    60_000,
  );

  it(
    "a pipe put in place of the seal stops the start at once with status 2, naming it and the rule (never waiting for a " +
      "writer); reseal-audit, after a person looked, replaces it and lets it start",
    async () => {
      const store = freshStore();
      expect((await session(store, (client) => sendSol(client, "0.65"))).structured.status).toBe("submitted");
      const seal = `${store.log}.seal`;
      const refused = await withPlanted(seal, "pipe", 0, () => start(store));
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`audit log ${store.log}: its seal ${seal} is not a regular file (a link, a pipe, a device or a folder in its place)`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);

      const started = await withPlanted(seal, "pipe", 0, () => {
        const resealed = cli(store, ["reseal-audit", store.log]);
        expect(resealed.status, resealed.stdout + resealed.stderr).toBe(0);
        return start(store);
      });
      expect(started.status).toBe(0);
    },
    60_000,
  );
});

type NotTheLog = "a link to the log" | "a folder" | "pipe" | "link to /dev/zero";

/** Runs `work` with `what` at the log's name, the log itself kept aside (a link points at it there) and put back after. */
async function withLogReplaced<T>(log: string, what: NotTheLog, work: () => T | Promise<T>): Promise<T> {
  const kept = `${log}.kept`;
  renameSync(log, kept);
  let undo = () => rmSync(log, { recursive: true, force: true });
  if (what === "a link to the log") symlinkSync(kept, log);
  else if (what === "a folder") mkdirSync(log);
  else undo = plant(log, what);
  try {
    return await work();
  } finally {
    undo();
    renameSync(kept, log);
  }
}

describe("an audit log that is not a regular file at its name, beside its seal", () => {
  it.each<NotTheLog>(["a link to the log", "a folder", "pipe", "link to /dev/zero"])(
    "%s: the start, over stdio and --http, ends with status 2 and one message naming the log and the rule, no stack trace",
    async (what) => {
      const store = freshStore();
      expect(cli(store, ["reseal-audit", store.log]).status).toBe(0);
      const runs = await withLogReplaced(store.log, what, () => [start(store), cli(store, ["--http", "--port", "0"])]);
      for (const run of runs) {
        expect(run.status, run.stderr).toBe(2);
        expect(run.stderr).toContain(`audit log ${store.log} is not a regular file (a link, a pipe, a device or a folder in its place); it is not read`);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(run.stderr).not.toContain("shortened");
      }
      expect(start(store).status).toBe(0);
    },
    60_000,
  );
});

describe("verify-audit's reading", () => {
  it("checks a log holding a 320 MB line in bounded memory, naming the line", () => {
    const store = freshStore();
    const log = join(store.dir, "long-line.jsonl");
    const mib = Buffer.alloc(1024 * 1024, 0x61);
    const fd = openSync(log, "w");
    try {
      for (let index = 0; index < 320; index += 1) writeSync(fd, mib);
      writeSync(fd, "\n");
    } finally {
      closeSync(fd);
    }
    const peak = new URL("../../test/bench/fixtures/report-peak-rss.mjs", import.meta.url).href;
    const result = spawnSync(process.execPath, ["--import", peak, bundle, "verify-audit", log], { encoding: "utf8", env: store.env });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      `BROKEN: line 1: ${320 * mib.length} bytes long, more than any audit record (1048576): not an audit record (0 records verified before it)\n`,
    );
    const peakKb = Number(/\{"peak_rss_kb":(\d+)\}/.exec(result.stderr)?.[1]);
    expect(peakKb).toBeGreaterThan(0);
    expect(peakKb).toBeLessThan(200 * 1024);
  }, 120_000);

  it("is quiet when its reader closes early (verify-audit | head): no EPIPE stack trace, its own status", async () => {
    const store = freshStore();
    expect((await session(store, (client) => sendSol(client, "0.1"))).structured.status).toBe("submitted");
    const child = spawn(process.execPath, [bundle, "verify-audit", store.log], { env: store.env, stdio: ["ignore", "pipe", "pipe"] });
    // The reader goes before the command has written anything.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(stderr).toBe("");
    expect(code).toBe(0);
  }, 60_000);
});
