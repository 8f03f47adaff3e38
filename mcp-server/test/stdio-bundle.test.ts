import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { buildBundle } from "./harness/built-bundle.js";
import { control } from "./harness/control-plane.js";
import { toolTour } from "./harness/tool-tour.js";
import { accountNamed, DEMO, directClient, transactionsWithLabel } from "./harness/demo-workspace.js";
import { startHoldingProxy } from "./harness/holding-proxy.js";
import { call, connectHarness, startTestEmulator, testClient, type HarnessOptions } from "./harness/mcp-harness.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";

let emulator: RunningEmulator;
let bundle: string;

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
}, 60_000);
afterAll(async () => {
  await emulator.close();
});

/** The built bundle as a client launches it: a child process speaking MCP on stdin/stdout. */
async function spawnServer(args: string[], env: Record<string, string>, elicit?: HarnessOptions["elicit"]): Promise<{ client: Client; stderr: () => string }> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, ...args],
    env: { PATH: process.env.PATH ?? "", ...childHome(), ...env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  const client = testClient(elicit);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/**
 * The files a start loads before answering: the entry, the server's main chunk it imports once
 * the compile cache is on (src/cli/launch.ts), and what they import statically (not import()).
 */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(/^import\s(?:[^;]*?\sfrom\s)?"(\.\.?\/[^"]+)";/gms)) visit(join(dirname(file), match[1] as string));
  };
  visit(entry);
  const main = /await import\("(\.\/chunks\/main-[^"]+)"\)/.exec(readFileSync(entry, "utf8"))?.[1];
  expect(main, "the entry starts the server's main chunk").toBeDefined();
  visit(join(dirname(entry), main as string));
  return [...seen];
}

/** The CLI in a home of its own: a default seal key left in the runner's home is another key than the servers', which verify-audit does not trust. */
function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bundle, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", ...childHome() } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The server on an empty stdin: it stops at once, or refuses its configuration first (bounded: one that did neither would serve on). */
function startWithClosedStdin(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    encoding: "utf8",
    timeout: 30_000,
    input: "",
    env: { PATH: process.env.PATH ?? "", ...childHome() },
  });
  return { status: result.status, stderr: result.stderr };
}

describe("the bundle over stdio", () => {
  it("serves every tool against a configured workspace, and a guarded write end to end; the audit chain verifies", async () => {
    const auditLog = join(tempDir("custody-mcp-audit-"), "audit.jsonl");
    const { client, stderr } = await spawnServer([], { CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: DEMO.treasuryBot, CUSTODY_AUDIT_LOG: auditLog });
    try {
      expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
      expect(client.getInstructions()).toContain("acting as API operator treasury-bot");
      expect(client.getInstructions()).toContain("every string value in structured results and in the JSON of custody:// resources");
      expect((await call(client, "health_check")).structured.status).toBe("OK");
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      const args = { account: DEMO.solTreasury, recipient, amount: "0.1", unit: "SOL" };
      const dry = await call(client, "create_transaction", args);
      const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status).toBe("submitted");
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
      expect(stderr()).toContain(`audit log: ${auditLog}`);
    } finally {
      await client.close();
    }
    const verified = runCli(["verify-audit", auditLog]);
    expect(verified.status).toBe(0);
    expect(verified.stdout).toMatch(/^ok: 5 records, chain intact/);
    const lines = readFileSync(auditLog, "utf8").split("\n");
    writeFileSync(auditLog, [lines[0], lines[2], lines[1], ...lines.slice(3)].join("\n"));
    const broken = runCli(["verify-audit", auditLog]);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/^BROKEN: line 2/);
  });

  it("asks the person through the form and submits on their confirmation (the answer checked by the validator loaded then)", async () => {
    const shown: string[] = [];
    const elicit = (message: string) => {
      shown.push(message);
      return { action: "accept" as const, content: { confirm: true } };
    };
    const { client } = await spawnServer(
      [],
      { CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: DEMO.treasuryBot, CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl") },
      elicit,
    );
    try {
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      // Not the 0.1 SOL an earlier test sent through another audit log: the workspace names that one as a duplicate.
      const args = { account: DEMO.solTreasury, recipient, amount: "0.12", unit: "SOL" };
      const dry = await call(client, "create_transaction", args);
      const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(shown).toHaveLength(1);
      expect(shown[0]).toContain("from sol-treasury");
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("answers every tool over stdio with structured content: reads, and writes as dry runs", async () => {
    await control(emulator, "POST", "/reset", { seed: "demo" });
    const tour = await toolTour(emulator);
    expect(tour.map((step) => step.tool).sort()).toEqual(ALL_TOOLS.map((tool) => tool.name).sort());
    const sessions = new Map<string, Client>();
    try {
      for (const operator of new Set(tour.map((step) => step.operator))) {
        const auditLog = join(tempDir("custody-mcp-audit-"), "audit.jsonl");
        sessions.set(operator, (await spawnServer([], { CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: operator, CUSTODY_AUDIT_LOG: auditLog })).client);
      }
      for (const step of tour) {
        const result = await call(sessions.get(step.operator) as Client, step.tool, step.args);
        const readOnly = ALL_TOOLS.find((tool) => tool.name === step.tool)?.annotations.readOnlyHint;
        if (step.tool === "register_operator") expect(result.structured.error, step.tool).toMatch(/HTTP 4\d\d/);
        else if (step.tool === "approve_transaction") expect(["dry_run", "blocked"], step.tool).toContain(result.structured.status);
        else if (readOnly || step.tool === "sync_account" || step.tool === "create_operator")
          expect(result.isError, `${step.tool}: ${result.text}`).toBe(false);
        else if (step.tool === "solana_delegate_stake") expect(result.structured.status, step.tool).toBe("blocked");
        else expect(result.structured.status, `${step.tool}: ${result.text}`).toBe("dry_run");
        expect(result.text.length, step.tool).toBeGreaterThan(0);
      }
    } finally {
      for (const client of sessions.values()) await client.close();
    }
  });

  it("answers tools/list from the listings generated at build time: the same tools, schemas and hints as the sources give", async () => {
    const { client } = await spawnServer([], {
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
    });
    const inMemory = await connectHarness(emulator);
    try {
      expect((await client.listTools()).tools).toEqual((await inMemory.client.listTools()).tools);
    } finally {
      await client.close();
      await inMemory.close();
    }
  });

  it(
    "a start loads neither the emulator, the HTTP transport (nor jose, its token checks), the client, any " +
      "tool, the confirmation page's routes and the writes they name, nor the PostgreSQL store and its driver: " +
      "chunks beside the entry, imported on demand; Ajv is in no file at all",
    () => {
      const markers = [
        "async function startEmulator",
        "async function startHttpServer",
        "ERR_JWKS_NO_MATCHING_KEY",
        "CustodyClient = class",
        "function defineWriteTool",
        "SELECT pg_advisory_xact_lock($1, $2)",
        "Connection terminated unexpectedly",
        // The confirmation page's routes, and through them every write's definition (zod schemas, rules).
        "This copy is read-only: it cannot confirm",
        "unreachable: no write spec for",
      ];
      const started = staticClosure(bundle)
        .map((file) => readFileSync(file, "utf8"))
        .join("\n");
      const chunks = join(dirname(bundle), "chunks");
      const shipped = readdirSync(chunks)
        .filter((file) => file.endsWith(".js"))
        .map((file) => readFileSync(join(chunks, file), "utf8"))
        .join("\n");
      for (const marker of markers) {
        expect(shipped, marker).toContain(marker);
        expect(started, marker).not.toContain(marker);
      }
      const ajv = "ajv-validator/ajv/master/lib/refs/data.json";
      expect(started + shipped).not.toContain(ajv);
    },
  );

  it("starts with a broken audit log, lists its tools, and refuses every call naming the log; nothing is sent", async () => {
    const auditLog = join(tempDir("custody-mcp-audit-"), "audit.jsonl");
    writeFileSync(auditLog, '{"not":"a record"}\n');
    const { client } = await spawnServer([], { CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: DEMO.treasuryBot, CUSTODY_AUDIT_LOG: auditLog });
    try {
      expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      for (const [tool, args] of [
        ["health_check", {}],
        ["create_transaction", { account: DEMO.solTreasury, recipient, amount: "0.1", unit: "SOL", note: "broken-log" }],
      ] as const) {
        const result = await call(client, tool, args);
        expect(result.isError, tool).toBe(true);
        expect(result.text, tool).toContain(`audit log ${auditLog} is not a valid chain`);
      }
      expect(await transactionsWithLabel(emulator, "broken-log")).toEqual([]);
    } finally {
      await client.close();
    }
    expect(readFileSync(auditLog, "utf8")).toBe('{"not":"a record"}\n');
  });

  it("two server processes sharing one audit log keep one valid chain", async () => {
    const dir = tempDir("custody-mcp-audit-");
    const auditLog = join(dir, "audit.jsonl");
    // One person's two processes share a home, so one seal key: each spawned here has a home of its own.
    const sealKey = join(dir, "seal.key");
    writeFileSync(sealKey, randomBytes(32), { mode: 0o600 });
    const env = { CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: DEMO.treasuryBot, CUSTODY_AUDIT_LOG: auditLog, CUSTODY_AUDIT_SEAL_KEY_FILE: sealKey };
    const first = await spawnServer([], env);
    const second = await spawnServer([], env);
    try {
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      const args = { account: DEMO.solTreasury, recipient, amount: "0.1", unit: "SOL" };
      for (let round = 0; round < 3; round += 1) {
        await Promise.all([call(first.client, "create_transaction", args), call(second.client, "create_transaction", args)]);
      }
    } finally {
      await first.client.close();
      await second.client.close();
    }
    const verified = runCli(["verify-audit", "--audit-seal-key-file", sealKey, auditLog]);
    expect(verified.stdout).toMatch(/^ok: 7 records, chain intact/);
  });

  it(
    "warms up (the tools, the context, the account names) after the first tools/list answer, " +
      "once; a client that lists no tools does not make it list the accounts",
    async () => {
      const warmed = /warmed up in \d+ ms: the tools, the context and the names of (\d+) accounts/g;
      const { client, stderr } = await spawnServer([], {
        CUSTODY_BASE_URL: emulator.baseUrl,
        CUSTODY_OPERATOR: DEMO.treasuryBot,
        CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
      });
      try {
        await client.listPrompts();
        await client.listResources();
        expect(stderr()).not.toMatch(warmed);
        expect((await client.listTools()).tools.length).toBeGreaterThan(1);
        await vi.waitFor(() => expect(stderr()).toMatch(warmed), { timeout: 15_000, interval: 50 });
        expect(Number([...stderr().matchAll(warmed)][0]?.[1])).toBeGreaterThan(1);
        await client.listTools();
        const result = await client.callTool({ name: "get_account", arguments: { account: DEMO.solTreasury } });
        expect((result.structuredContent as { account?: { name?: string } }).account?.name).toBe(DEMO.solTreasury);
        expect([...stderr().matchAll(warmed)]).toHaveLength(1);
      } finally {
        await client.close();
      }
    },
  );

  it("--read-only registers no write tool", async () => {
    const { client } = await spawnServer(["--read-only"], {
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "a.jsonl"),
    });
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect(client.getInstructions()).toContain("Read-only mode");
    } finally {
      await client.close();
    }
  });

  it("with no base URL, starts the emulator in-process on the demo workspace and says so", async () => {
    const { client, stderr } = await spawnServer([], {});
    try {
      expect(client.getInstructions()).toContain("EMBEDDED DEMO");
      const accounts = await call(client, "list_accounts");
      expect((accounts.structured.accounts as { name: string }[]).map((account) => account.name)).toContain(DEMO.dotStaking);
      expect(stderr()).toContain("started the emulator in-process");
      // Reachable only by the server that started it: a request without the emulator's key is refused.
      const embeddedUrl = /started the emulator in-process at (\S+) /.exec(stderr())?.[1];
      expect(embeddedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/module$/);
      const refused = await fetch(`${embeddedUrl}/accounts`, { headers: { "x-vendor-api-user": DEMO.treasuryBot } });
      expect([refused.status, ((await refused.json()) as { name: string }).name]).toEqual([401, "EmulatorKeyRequired"]);
    } finally {
      await client.close();
    }
  });

  it("refuses a bad configuration with a message naming the setting", () => {
    const noOperator = spawnSync(process.execPath, [bundle, "--base-url", emulator.baseUrl], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
    expect(noOperator.status).toBe(2);
    expect(noOperator.stderr).toContain("--operator (CUSTODY_OPERATOR): required with --base-url");
    const policyDir = tempDir("custody-mcp-policy-");
    writeFileSync(join(policyDir, "policy.json"), JSON.stringify({ read_only: "yes" }));
    const badPolicy = spawnSync(
      process.execPath,
      [bundle, "--base-url", emulator.baseUrl, "--operator", "treasury-bot", "--policy", join(policyDir, "policy.json")],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } },
    );
    expect(badPolicy.status).toBe(2);
    expect(badPolicy.stderr).toMatch(/policy file .*policy\.json: read_only/);
    const publicHost = runCli(["--http", "--host", "0.0.0.0"]);
    expect(publicHost.status).toBe(2);
    expect(publicHost.stderr).toContain("--host: must be a loopback address");
    // A one-character bearer token stood between every tool and anyone on this machine.
    // Bounded: a server that accepted it would serve until killed.
    const shortToken = spawnSync(process.execPath, [bundle, "--http", "--port", "0"], {
      encoding: "utf8",
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? "", CUSTODY_MCP_TOKEN: "a" },
    });
    expect(shortToken.status).toBe(2);
    expect(shortToken.stderr).toContain("CUSTODY_MCP_TOKEN: at least 32 characters, got 1");
  });

  it("refuses at start a base URL that is empty, no http(s) URL or carries a password (never printed), an operator no header can carry, two stores", () => {
    const refusals: [string[], string][] = [
      [["--base-url", "ftp://custody.example/module", "--operator", "treasury-bot"], "--base-url (CUSTODY_BASE_URL): must use http or https"],
      [
        ["--base-url", "https://ops:hunter2-secret@custody.example/module", "--operator", "treasury-bot"],
        "--base-url (CUSTODY_BASE_URL): must not carry credentials",
      ],
      [["--base-url", "custody.example/module", "--operator", "treasury-bot"], "--base-url (CUSTODY_BASE_URL): must be an absolute URL"],
      [["--base-url", emulator.baseUrl, "--operator", "treasury bot"], "--operator (CUSTODY_OPERATOR): must contain no space"],
      // `--base-url "$URL"` with URL unset: not the demo workspace in its place.
      [["--base-url", "", "--operator", "treasury-bot"], "--base-url: given empty"],
      [["--base-url", " ", "--operator", "treasury-bot"], "--base-url: given empty"],
      [["verify-audit", "audit.jsonl", "--store", "postgres://custody@db.invalid/custody"], "verify-audit: give the store once"],
    ];
    for (const [args, message] of refusals) {
      const result = startWithClosedStdin(args);
      expect([result.status, result.stderr]).toEqual([2, expect.stringContaining(message)]);
      expect(result.stderr).not.toContain("hunter2-secret");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("refuses a policy file giving a key twice (JSON keeps the last, unseen by a reviewer); reads one starting with a byte order mark", () => {
    const policyDir = tempDir("custody-mcp-policy-");
    const twice = join(policyDir, "twice.json");
    writeFileSync(twice, '{ "read_only": true, "toolsets": ["read"], "read_only": false }');
    const loosened = startWithClosedStdin(["--policy", twice]);
    expect([loosened.status, loosened.stderr]).toEqual([2, expect.stringContaining(`policy file ${twice}: gives read_only twice`)]);
    const marked = join(policyDir, "marked.json");
    writeFileSync(marked, '\uFEFF{ "read_only": true }');
    const read = startWithClosedStdin(["--policy", marked]);
    expect([read.status, read.stderr]).toEqual([0, expect.stringContaining("; read-only mode")]);
  });

  it("stops with a clear error when its port is taken, instead of staying alive on the embedded workspace it started", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      // Bounded: a server that stayed alive after failing to listen would run until killed.
      const taken = spawnSync(process.execPath, [bundle, "--http", "--port", String(port)], {
        encoding: "utf8",
        timeout: 30_000,
        // A server stuck after failing to listen may not stop on SIGTERM either.
        killSignal: "SIGKILL",
        env: { PATH: process.env.PATH ?? "", ...childHome(), CUSTODY_MCP_TOKEN: randomBytes(32).toString("hex") },
      });
      expect(taken.status).toBe(2);
      expect(taken.stderr).toContain(`--port: 127.0.0.1:${port} is already in use`);
      expect(taken.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 90_000);
});

describe("two server processes staking at the same moment", () => {
  it("a stake whose answer was lost is never taken for another process's stake: the look-up compares the amount and names the candidate", async () => {
    const validator = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
    const treasury = await accountNamed(emulator, DEMO.solTreasury);
    const proxy = await startHoldingProxy(emulator);
    const env = (baseUrl: string) => ({
      CUSTODY_BASE_URL: baseUrl,
      CUSTODY_OPERATOR: DEMO.stakingBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
    });
    const first = await spawnServer([], env(proxy.baseUrl));
    const second = await spawnServer([], env(emulator.baseUrl));
    try {
      const two = { account: DEMO.solTreasury, amount: "2", unit: "SOL", validator };
      const three = { ...two, amount: "3" };
      const [dryTwo, dryThree] = [await call(first.client, "solana_create_stake", two), await call(second.client, "solana_create_stake", three)];
      expect([dryTwo.structured.status, dryThree.structured.status]).toEqual(["dry_run", "dry_run"]);
      // The first process's POST never reaches the service; meanwhile the second process stakes 3 SOL.
      proxy.hold("POST", `/solana/accounts/${treasury.id}/stakes`, { kind: "drop" });
      const lost = call(first.client, "solana_create_stake", { ...two, confirmation_token: dryTwo.token });
      await proxy.held();
      const other = await call(second.client, "solana_create_stake", { ...three, confirmation_token: dryThree.token });
      expect(other.structured.status).toBe("submitted");
      const otherId = (other.structured.transaction as { id: number }).id;
      proxy.release();
      const answer = await lost;
      expect(answer.structured.status).toBe("uncertain");
      expect(answer.structured.candidates).toEqual([{ id: otherId, differences: ["amount 3000000000 (asked 2000000000)"] }]);
      expect(answer.text).not.toContain("SUBMITTED");
      const stakes = (await directClient(emulator, DEMO.stakingBot).searchTransactions({ account_id: treasury.id, page_size: 50 })).edges.filter(
        (edge) => edge.node.type === "STAKE_CREATE_DELEGATE",
      );
      expect(stakes.map((edge) => edge.node.id)).toContain(otherId);
      expect(stakes.filter((edge) => edge.node.amount === 2_000_000_000n)).toEqual([]);
    } finally {
      await first.client.close();
      await second.client.close();
      await proxy.close();
    }
  });
});
