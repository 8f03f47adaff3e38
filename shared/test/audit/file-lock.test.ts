import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newOwner } from "../../src/audit/lock-owner.js";
import { AuditLog, verifyAuditLog, type AuditInput } from "../../src/index.js";
import { bundleShared } from "../guard-store/shared-bundle.js";

const entry = (surface: string): AuditInput => ({ event: "dry_run", surface, operator: "alice_ops", tool: "create_transaction", request_digest: null });

let work: string;
let bundle: string;

/** Takes the log's lock, says so in `ready`, stops itself (SIGSTOP) while holding it; once continued, releases it and appends one record. */
const HOLDER = `import { writeFileSync } from "node:fs";
const [bundle, path, ready] = process.argv.slice(2);
const { AuditLog } = await import(bundle);
const log = new AuditLog(path);
await log.withLock(() => {
  writeFileSync(ready, String(process.pid));
  process.kill(process.pid, "SIGSTOP");
});
await log.append({ event: "dry_run", surface: "holder", operator: "alice_ops", tool: "create_transaction", request_digest: null });
`;

/** Waits for the go file, then appends `count` records. */
const WRITER = `import { existsSync, writeFileSync } from "node:fs";
const [bundle, path, go, name, count] = process.argv.slice(2);
const { AuditLog } = await import(bundle);
const log = new AuditLog(path);
writeFileSync(go + "." + name, "");
while (!existsSync(go)) await new Promise((resolve) => setTimeout(resolve, 1));
for (let index = 0; index < Number(count); index += 1) {
  await log.append({ event: "dry_run", surface: name, operator: "alice_ops", tool: "create_transaction", request_digest: null });
}
`;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "audit-lock-"));
  bundle = bundleShared(work);
  writeFileSync(join(work, "holder.mjs"), HOLDER);
  writeFileSync(join(work, "writer.mjs"), WRITER);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function freshPath(): string {
  return join(mkdtempSync(join(work, "log-")), "audit.jsonl");
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 15_000) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode ?? "");
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "")));
}

/** A child process holding the log's lock, stopped. */
async function stoppedHolder(path: string): Promise<ChildProcess> {
  const ready = `${path}.ready`;
  const child = spawn(process.execPath, [join(work, "holder.mjs"), bundle, path, ready], { stdio: "inherit" });
  await until(() => existsSync(ready), "the holder to take the lock");
  await until(() => readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.startsWith("T") === true, "the holder to stop");
  return child;
}

function lockFiles(path: string): string[] {
  const dir = join(path, "..");
  return readdirSync(dir).filter((name) => name.includes(".lock"));
}

describe.runIf(process.platform === "linux")("the audit log's lock", () => {
  it("is never taken from a live holder, even stopped: a writer waits, reports the holder, and goes on once it continues", async () => {
    const path = freshPath();
    const holder = await stoppedHolder(path);
    try {
      const impatient = new AuditLog(path, undefined, { lockWaitMs: 500 });
      await expect(impatient.append(entry("impatient"))).rejects.toThrow(
        new RegExp(`held by process ${holder.pid} since .* \\(alive but stopped\\); waited \\d+\\.\\d s, nothing was done.*kill -CONT ${holder.pid}`),
      );
      expect(JSON.parse(readFileSync(`${path}.lock`, "utf8"))).toMatchObject({ pid: holder.pid });
      expect(existsSync(path)).toBe(false);

      const patient = new AuditLog(path, undefined, { lockWaitMs: 30_000 });
      let settled = false;
      const pending = patient.append(entry("patient")).finally(() => {
        settled = true;
      });
      await sleep(300);
      expect(settled).toBe(false);
      holder.kill("SIGCONT");
      expect((await pending).surface).toBe("patient");
      expect(await exited(holder)).toBe(0);
    } finally {
      holder.kill("SIGKILL");
    }
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 3 });
    expect(lockFiles(path)).toEqual([]);
  }, 30_000);

  it("is taken over from a holder that died (SIGKILL) while holding it", async () => {
    const path = freshPath();
    const holder = await stoppedHolder(path);
    holder.kill("SIGKILL");
    await exited(holder);
    expect(JSON.parse(readFileSync(`${path}.lock`, "utf8"))).toMatchObject({ pid: holder.pid });
    const record = await new AuditLog(path, undefined, { lockWaitMs: 10_000 }).append(entry("after"));
    expect(record.seq).toBe(1);
    expect(lockFiles(path)).toEqual([]);
  }, 30_000);

  it("is taken over when its pid now belongs to another process (another start time), and not for its age", async () => {
    const path = freshPath();
    const old = new Date(Date.now() - 3_600_000);
    writeFileSync(`${path}.lock`, JSON.stringify({ ...newOwner(), started: "1" }));
    expect((await new AuditLog(path, undefined, { lockWaitMs: 10_000 }).append(entry("recycled"))).seq).toBe(1);

    const live = newOwner();
    writeFileSync(`${path}.lock`, JSON.stringify(live));
    utimesSync(`${path}.lock`, old, old);
    await expect(new AuditLog(path, undefined, { lockWaitMs: 200 }).append(entry("aged"))).rejects.toThrow(
      `held by process ${process.pid} since ${live.since} (alive)`,
    );
    expect(JSON.parse(readFileSync(`${path}.lock`, "utf8"))).toEqual(live);
  });

  it("is waited for, never removed, when it names no holder (a lock file of an older version)", async () => {
    const path = freshPath();
    writeFileSync(`${path}.lock`, "");
    await expect(new AuditLog(path, undefined, { lockWaitMs: 200 }).append(entry("blind"))).rejects.toThrow(/left no readable owner in it/);
    expect(readFileSync(`${path}.lock`, "utf8")).toBe("");
  });

  it("lets one writer at a time take over a dead holder's lock when several race for it: one chain", async () => {
    const path = freshPath();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(`${path}.lock`, JSON.stringify({ ...newOwner(), pid: dead }));
    const go = `${path}.go`;
    const names = ["a", "b", "c", "d"];
    const writers = names.map((name) => spawn(process.execPath, [join(work, "writer.mjs"), bundle, path, go, name, "10"], { stdio: "inherit" }));
    await until(() => names.every((name) => existsSync(`${go}.${name}`)), "the writers to start");
    writeFileSync(go, "");
    expect(await Promise.all(writers.map(exited))).toEqual([0, 0, 0, 0]);
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 41 });
    expect(lockFiles(path)).toEqual([]);
  }, 60_000);
});
