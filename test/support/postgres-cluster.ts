import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ensureDebianPackages, type Installed } from "./debian-packages.js";
import { freePort } from "./free-port.js";

/** Debian's PostgreSQL 15 (package postgresql, bookworm's). */
export const PG_BIN = "/usr/lib/postgresql/15/bin";

/** Installs Debian's postgresql when its binaries are missing (see ensureDebianPackages). */
export function postgresInstalled(): Installed {
  return ensureDebianPackages([{ name: "postgresql", files: ["initdb", "pg_ctl", "psql"].map((program) => join(PG_BIN, program)) }]);
}

export interface PostgresCluster {
  port: number;
  /** The superuser's password (the URLs carry it, as a team's would). */
  password: string;
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
  url(database: string): string;
  /** A new empty database; its URL. */
  createDatabase(prefix?: string): string;
  /** Runs SQL in a database with psql; its output (unaligned, tuples only). */
  psql(database: string, sql: string): string;
  /** pg_ctl restart -m fast: every connection is cut; the cluster is back when it resolves. */
  restart(): Promise<void>;
  /** Stops the cluster at once and removes its folder. */
  stop(): void;
  logText(): string;
}

/**
 * A throwaway PostgreSQL cluster for one test file: initdb in a temporary folder (as the postgres
 * user when running as root, since initdb refuses root; that user owns the data folder), listening
 * on 127.0.0.1 on a free port with a socket folder of its own, password authentication over TCP.
 * `durable: false` turns fsync off: faster, and a clean restart loses nothing either way.
 */
export async function startPostgresCluster(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const installed = postgresInstalled();
  if (!installed.ok) throw new Error(installed.reason);
  const root = mkdtempSync(join(tmpdir(), "custody-pg-"));
  const data = join(root, "data");
  const sockets = join(root, "sockets");
  const log = join(root, "postgres.log");
  const passwordFile = join(root, "password");
  const password = randomBytes(18).toString("base64url");
  mkdirSync(sockets);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  writeFileSync(log, "");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    for (const path of [root, sockets, passwordFile, log]) chownSync(path, uid, gid);
  }
  // As root, PostgreSQL's programs run as the postgres user, which owns the cluster's folders.
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", join(PG_BIN, program), ...args]] : [join(PG_BIN, program), args];
  const run = (program: string, args: string[]): string =>
    execFileSync(...command(program, args), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
  const runAsync = (program: string, args: string[]) => promisify(execFile)(...command(program, args), { encoding: "utf8", timeout: 120_000 });
  const port = await freePort();
  run("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    `--pwfile=${passwordFile}`,
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  const settings = [
    `-c port=${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${sockets}`,
    "-c max_connections=300",
    "-c shared_buffers=128MB",
    ...(options.durable === false ? ["-c fsync=off", "-c full_page_writes=off"] : []),
  ].join(" ");
  run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", settings, "start"]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // Already down: the folder is removed all the same.
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", stop);
  const psql = (database: string, sql: string) =>
    run("psql", ["-h", sockets, "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-X", "-q", "-A", "-t", "-c", sql]);
  let created = 0;
  return {
    port,
    password,
    url: (database) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    createDatabase(prefix = "custody") {
      created += 1;
      // Unique across runs too: the seal key's register beside the default key names a database by its URL.
      const name = `${prefix}_${process.pid}_${created}_${randomBytes(4).toString("hex")}`;
      psql("postgres", `CREATE DATABASE ${name}`);
      return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${name}`;
    },
    psql,
    restart: async () => void (await runAsync("pg_ctl", ["-D", data, "-l", log, "-m", "fast", "-w", "-t", "60", "restart"])),
    stop,
    logText: () => (existsSync(log) ? readFileSync(log, "utf8") : ""),
  };
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error("no postgres user: Debian's postgresql package creates it");
  return { uid: Number(uid), gid: Number(gid) };
}
