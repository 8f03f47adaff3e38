// Where a get_account call over stdio spends its time, against the same GET made directly with
// shared's CustodyClient: each generation's session and the direct client in alternating blocks of 25,
// the demo emulator in a process of its own, every process timestamped by support/stage-marks.cjs.
// Prints each variant's p50, each process's CPU time a call (/proc) and the median of each stage.
// Run after `npx tsc -b` and the bundle: node test/bench/call-stages.mjs [calls] [bundle]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { CustodyClient } from "../../shared/dist/index.js";

const CALLS = Number(process.argv[2] ?? 2000);
const BUNDLE = process.argv[3] ?? fileURLToPath(new URL("../../mcp-server/dist/custody-mcp.js", import.meta.url));
const MARKS = new URL("support/stage-marks.mjs", import.meta.url).href;
const EMULATOR = fileURLToPath(new URL("../../packages/emulator/bin/custody-emulator.js", import.meta.url));
const BLOCK = 25;
const WARM_UP = 50;
const work = mkdtempSync(join(tmpdir(), "custody-call-stages-"));
const marksOf = (name) => join(work, `${name}.marks`);
const MODERN = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "call-stages", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

const emulator = spawn(process.execPath, ["--import", MARKS, EMULATOR, "serve", "--seed", "demo"], {
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, CUSTODY_STAGE_MARKS: marksOf("emulator") },
});
const ready = JSON.parse(await new Promise((resolve) => createInterface({ input: emulator.stdout }).once("line", resolve)));
// This process's own marks (the direct client's GETs), kept in memory.
process.env.CUSTODY_STAGE_MARKS = marksOf("harness");
await import(MARKS);
delete process.env.CUSTODY_STAGE_MARKS;
const ownMarks = globalThis.__custodyStageMarks;
const client = new CustodyClient({ baseUrl: ready.base_url, operator: "treasury-bot" });
const account = (await client.listAllAccounts()).find((each) => each.name === "sol-treasury");

/** One stdio session, driven by hand (newline JSON-RPC), in either generation. */
function session(revision) {
  const env = { PATH: process.env.PATH ?? "", HOME: work, CUSTODY_BASE_URL: ready.base_url, CUSTODY_OPERATOR: "treasury-bot" };
  const child = spawn(process.execPath, ["--import", MARKS, BUNDLE], {
    stdio: ["pipe", "pipe", "ignore"],
    env: { ...env, CUSTODY_AUDIT_LOG: join(work, `${revision}.jsonl`), CUSTODY_STAGE_MARKS: marksOf(revision), CUSTODY_STAGE_STDIO: "1" },
  });
  const waiting = new Map();
  let nextId = 1;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line);
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  const request = (method, params = {}) => {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: revision === "2026-07-28" ? { ...params, _meta: MODERN } : params })}\n`);
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  const opened =
    revision === "2026-07-28"
      ? request("server/discover")
      : request("initialize", { protocolVersion: revision, capabilities: {}, clientInfo: MODERN["io.modelcontextprotocol/clientInfo"] }).then(() =>
          child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'),
        );
  const call = async () => {
    const answer = await request("tools/call", { name: "get_account", arguments: { account: String(account.id) } });
    if (answer.result === undefined || answer.result.isError === true) throw new Error(`get_account failed: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  return { child, opened, call };
}

const sessions = { "2025-11-25": session("2025-11-25"), "2026-07-28": session("2026-07-28") };
await Promise.all(Object.values(sessions).map((each) => each.opened));
const variants = {
  direct: () => client.getAccount(account.id),
  ...Object.fromEntries(Object.entries(sessions).map(([revision, each]) => [revision, each.call])),
};
const sent = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
const wall = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

for (let index = 0; index < WARM_UP; index += 1) for (const run of Object.values(variants)) await run();
const cpuBefore = Object.fromEntries(Object.entries(sessions).map(([revision, each]) => [revision, cpuMs(each.child.pid)]));
for (let done = 0; done < CALLS; done += BLOCK) {
  for (const [name, run] of Object.entries(variants)) {
    for (let index = 0; index < BLOCK; index += 1) {
      const started = process.hrtime.bigint();
      const startedMs = performance.now();
      await run();
      wall[name].push(performance.now() - startedMs);
      sent[name].push([started, process.hrtime.bigint()]);
    }
  }
}
const cpu = Object.fromEntries(Object.entries(sessions).map(([revision, each]) => [revision, (cpuMs(each.child.pid) - cpuBefore[revision]) / CALLS]));
for (const each of Object.values(sessions)) each.child.stdin.end();
await Promise.all(Object.values(sessions).map((each) => new Promise((resolve) => each.child.once("exit", resolve))));
emulator.kill("SIGTERM");
await new Promise((resolve) => emulator.once("exit", resolve));

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};
const readMarks = (name) =>
  readFileSync(marksOf(name), "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split(" "))
    .map(([label, at]) => ({ label, at: BigInt(at) }));
const inMemory = (marks) => Array.from({ length: marks.length / 2 }, (_, index) => ({ label: marks[2 * index], at: marks[2 * index + 1] }));
const ms = (from, to) => Number(to - from) / 1e6;
/** The first mark of `label` at or after `from` (and before `until`), in a list sorted by time. */
function firstAfter(marks, label, from, until) {
  let low = 0;
  let high = marks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (marks[middle].at < from) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < marks.length && marks[index].at <= until; index += 1) if (marks[index].label === label) return marks[index].at;
  return undefined;
}

const emulatorMarks = readMarks("emulator");
const rows = {};
const stage = (name, label, value) => {
  rows[label] ??= {};
  rows[label][name] ??= [];
  if (value !== undefined && !Number.isNaN(value)) rows[label][name].push(value);
};
for (const revision of Object.keys(sessions)) {
  const marks = readMarks(revision);
  for (const [started, answered] of sent[revision]) {
    const at = (label, from = started) => firstAfter(marks, label, from, answered);
    const stdin = at("stdin");
    const socketWrite = stdin && at("socketWrite", stdin);
    const answerEnd = socketWrite && at("answerEnd", socketWrite);
    const stdoutWrite = answerEnd && at("stdoutWrite", answerEnd);
    const stdoutWritten = stdoutWrite && at("stdoutWritten", stdoutWrite);
    const serverRequest = socketWrite && firstAfter(emulatorMarks, "serverRequest", socketWrite, answered);
    const serverAnswered = serverRequest && firstAfter(emulatorMarks, "serverAnswered", serverRequest, answered);
    if (!stdoutWritten || !serverAnswered) continue;
    stage(revision, "client to the server's stdin", ms(started, stdin));
    stage(revision, "stdin to the GET on the socket (the SDK, the handler, the tool)", ms(stdin, socketWrite));
    stage(revision, "the GET on the socket to the emulator's request", ms(socketWrite, serverRequest));
    stage(revision, "the emulator's request to its answer written", ms(serverRequest, serverAnswered));
    stage(revision, "the emulator's answer to the GET's end", ms(serverAnswered, answerEnd));
    stage(revision, "the GET's end to the answer's write (the tool, the SDK)", ms(answerEnd, stdoutWrite));
    stage(revision, "the answer's write (the client woken)", ms(stdoutWrite, stdoutWritten));
    stage(revision, "the answer's write to the client's await", ms(stdoutWrite, answered));
  }
}
const own = inMemory(ownMarks);
for (const [started, answered] of sent.direct) {
  const socketWrite = firstAfter(own, "socketWrite", started, answered);
  const answerEnd = socketWrite && firstAfter(own, "answerEnd", socketWrite, answered);
  const serverRequest = socketWrite && firstAfter(emulatorMarks, "serverRequest", socketWrite, answered);
  const serverAnswered = serverRequest && firstAfter(emulatorMarks, "serverAnswered", serverRequest, answered);
  if (!answerEnd || !serverAnswered) continue;
  stage("direct", "the call to the GET on the socket", ms(started, socketWrite));
  stage("direct", "the GET on the socket to the emulator's request", ms(socketWrite, serverRequest));
  stage("direct", "the emulator's request to its answer written", ms(serverRequest, serverAnswered));
  stage("direct", "the emulator's answer to the GET's end", ms(serverAnswered, answerEnd));
  stage("direct", "the GET's end to the client's await", ms(answerEnd, answered));
}

const names = Object.keys(variants);
const direct = median(wall.direct);
console.log(
  `p50 ms (${CALLS} calls each):`,
  names.map((name) => `${name} ${median(wall[name]).toFixed(3)} (over the direct ${(median(wall[name]) - direct).toFixed(3)})`).join(", "),
);
console.log(
  "server CPU ms a call:",
  Object.entries(cpu)
    .map(([revision, value]) => `${revision} ${value.toFixed(3)}`)
    .join(", "),
);
console.log(`stage p50s in ms (${names.join(" / ")}):`);
for (const [label, byName] of Object.entries(rows))
  console.log(`  ${label}: ${names.map((name) => (byName[name] ? median(byName[name]).toFixed(3) : "-")).join(" / ")}`);
rmSync(work, { recursive: true, force: true });
