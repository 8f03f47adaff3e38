import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { AuditRecord, CustodyClient } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCustodyServer } from "../bench/support/program-bundles.js";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { freePort } from "../support/free-port.js";
import { startNginxBalancer, type NginxBalancer } from "../support/nginx-balancer.js";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";
import { startReplica, type ReplicaProcess } from "../support/replica-process.js";
import { sessionsOnEach, type TeamSession } from "../support/team-session.js";

// Two people with different roles sign in through a real authorization server (authorization code
// with PKCE) and work on the same two replicas behind nginx, sharing one PostgreSQL store: each is
// held to their role, both count against the team's limit, and the audit chain says who did what.

type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

const SOL = 1_000_000_000n;
const POLICY = {
  team_limits: { solana_testnet: { max_per_day: { base_units: SOL.toString() } } },
  roles: [
    {
      name: "treasury",
      when: { groups: ["treasury-operators"] },
      operator: "treasury-bot",
      toolsets: ["read", "transactions"],
      limits: { solana_testnet: { max_per_day: { base_units: ((SOL * 6n) / 10n).toString() } } },
    },
    { name: "approvers", when: { groups: ["treasury-approvers"] }, operator: "staking-bot", toolsets: ["read", "transactions", "solana_staking"] },
    { name: "viewers", when: { groups: ["treasury-viewers"] }, read_only: true },
  ],
};

let cluster: PostgresCluster;
let emulator: RunningEmulator;
let authorization: AuthorizationServer;
let bundle: string;
let storeUrl: string;
let replicas: ReplicaProcess[] = [];
/** The replicas' home, where their default audit seal key is. */
let replicasHome: string;
let balancer: NginxBalancer;
let recipient: string;
const sessions: TeamSession[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
  emulator = await startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10, log: () => {} });
  const work = mkdtempSync(join(tmpdir(), "custody-sign-in-"));
  replicasHome = work;
  bundle = buildCustodyServer(join(work, "custody-mcp.js"));
  storeUrl = cluster.createDatabase("people");
  const secretFile = join(work, "token-secret");
  writeFileSync(secretFile, randomBytes(32), { mode: 0o600 });
  const policyFile = join(work, "policy.json");
  writeFileSync(policyFile, JSON.stringify(POLICY));
  const balancerPort = await freePort();
  const publicUrl = `http://127.0.0.1:${balancerPort}/mcp`;
  authorization = await startAuthorizationServer(await freePort(), publicUrl);
  const env = {
    HOME: work,
    CUSTODY_BASE_URL: emulator.baseUrl,
    CUSTODY_OPERATOR: "treasury-bot",
    CUSTODY_POLICY: policyFile,
    CUSTODY_STORE: storeUrl,
    CUSTODY_TOKEN_SECRET_FILE: secretFile,
    CUSTODY_AUTH_ISSUER: authorization.issuer,
    CUSTODY_PUBLIC_URL: publicUrl,
  };
  replicas = [await startReplica(bundle, "r1", await freePort(), env), await startReplica(bundle, "r2", await freePort(), env)];
  balancer = await startNginxBalancer(replicas, balancerPort);
  const accounts = await new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" }).listAllAccounts();
  recipient = accounts.find((account) => account.name === "sol-cold")?.address ?? "";
}, 180_000);

afterAll(async () => {
  for (const session of sessions) await session.close();
  await balancer?.stop();
  for (const replica of replicas) await replica.stop();
  await authorization?.stop();
  await emulator?.close();
  cluster?.stop();
});

const send = (lamports: bigint, note: string) => ({ account: "sol-treasury", recipient, amount: lamports.toString(), unit: "lamport", note });

/** A dry run, then its confirmation when it passed. */
async function pay(session: TeamSession, lamports: bigint, note: string) {
  const dry = await session.call("create_transaction", send(lamports, note));
  if (dry.structured.status !== "dry_run") return dry;
  return session.call("create_transaction", { ...send(lamports, note), confirmation_token: dry.token });
}

function chain(): AuditRecord[] {
  const exported = spawnSync(process.execPath, [bundle, "export-audit", "--store", storeUrl], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(exported.status, exported.stderr).toBe(0);
  return exported.stdout
    .trimEnd()
    .split("\n")
    .map((line) => AuditRecord.parse(JSON.parse(line)));
}

describe("people signed in on two replicas", () => {
  it("holds each to their role, counts both in the team's limit, and the chain says who did what", async () => {
    const write = ["custody:read", "custody:write"] as const;
    // Each person signs in once (authorization code with PKCE) and works on both replicas with that token.
    const [alice1, alice2] = await sessionsOnEach(balancer.url, await authorization.personToken("alice", write), ["r1", "r2"], 1);
    const [carol1, carol2] = await sessionsOnEach(balancer.url, await authorization.personToken("carol", write), ["r1", "r2"], 1);
    sessions.push(...[alice1, alice2, carol1, carol2].filter((session) => session !== undefined));
    if (!alice1 || !alice2 || !carol1 || !carol2) throw new Error("sessions on both replicas");
    expect([alice1.replica, alice2.replica, carol1.replica, carol2.replica]).toEqual(["r1", "r2", "r1", "r2"]);

    // Roles: Alice (treasury) has no staking tool; Carol (approvers) has them.
    const names = async (session: TeamSession) => (await session.client.listTools()).tools.map((tool) => tool.name);
    expect(await names(alice2)).not.toContain("solana_create_stake");
    expect(await names(carol1)).toContain("solana_create_stake");

    // Alice pays 0.4 SOL on r1; her next 0.3 SOL on r2 would pass her own 0.6 SOL a day.
    const first = await pay(alice1, (SOL * 4n) / 10n, "alice first");
    expect(first.structured.status, first.text).toBe("submitted");
    const second = await pay(alice2, (SOL * 3n) / 10n, "alice second");
    expect(second.structured.status, second.text).toBe("blocked");
    expect(second.text).toContain("POLICY_PERSON_MAX_PER_DAY");

    // Carol has no limit of her own: 0.5 SOL on r2 passes (the team is at 0.9 of 1 SOL), 0.2 more on r1 does not.
    const dry = await carol2.call("create_transaction", send((SOL * 5n) / 10n, "carol first"));
    expect(dry.text).toMatch(
      /Prepared for <untrusted field="prepared_for">Carol Reyes <carol@example.com> \(subject carol, via client custody-desk\)<\/untrusted>, as operator staking-bot\./,
    );
    // Alice cannot confirm what Carol prepared, on any replica.
    const stolen = await alice2.call("create_transaction", { ...send((SOL * 5n) / 10n, "carol first"), confirmation_token: dry.token });
    expect(stolen.structured.status, stolen.text).toBe("refused");
    const carols = await carol2.call("create_transaction", { ...send((SOL * 5n) / 10n, "carol first"), confirmation_token: dry.token });
    expect(carols.structured.status, carols.text).toBe("submitted");
    const over = await pay(carol1, (SOL * 2n) / 10n, "carol second");
    expect(over.structured.status, over.text).toBe("blocked");
    expect(over.text).toContain("POLICY_TEAM_MAX_PER_DAY");

    // Who did what: every record of each write names its person and the client, as the operator of their role.
    const records = chain();
    for (const [answer, subject, operator] of [
      [first, "alice", "treasury-bot"],
      [carols, "carol", "staking-bot"],
    ] as const) {
      const own = records.filter((record) => record.details?.reference === answer.structured.reference);
      expect(own.map((record) => record.event)).toEqual(expect.arrayContaining(["confirmed", "reserved", "submitted"]));
      for (const record of own) expect(record).toMatchObject({ operator, person: { subject, client: "custody-desk" } });
    }
    expect(records.find((record) => record.event === "refused" && record.person?.subject === "alice")).toBeDefined();
    // In the replicas' home, with their key: a default key in the runner's home is another key, whose seal verify-audit does not trust.
    const verified = spawnSync(process.execPath, [bundle, "verify-audit", "--store", storeUrl], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: replicasHome },
    });
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/Alice Martin <alice@example.com> \(subject alice, via client custody-desk\): [0-9]+ records: .* 1 submitted/);
    expect(verified.stdout).toMatch(/Carol Reyes <carol@example.com> \(subject carol, via client custody-desk\): [0-9]+ records: .* 1 submitted/);
  });
});
