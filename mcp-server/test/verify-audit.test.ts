import { spawnSync } from "node:child_process";
import { closeSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGeneratedLog } from "../../shared/test/audit/generated-log.js";
import { buildBundle } from "./harness/built-bundle.js";
import { tempDir } from "./harness/temp-dirs.js";

const RECORDS = 250_000;
/** V8's heap for the check: well under the log's size, so reading it whole (as one string, or split) cannot fit. */
const HEAP_MB = 64;

let bundle: string;

beforeAll(() => {
  bundle = buildBundle();
}, 120_000);

function verifyAudit(file: string) {
  const result = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, bundle, "verify-audit", file], { encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Changes one byte of the line starting after the `line - 1`th "\n" (a digit of its time), in place. */
function editLine(file: string, line: number): void {
  const fd = openSync(file, "r+");
  try {
    const chunk = Buffer.alloc(1 << 20);
    let position = 0;
    let seen = 1;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) throw new Error(`the log has no line ${line}`);
      for (let index = 0; index < read; index += 1) {
        if (seen === line) {
          // `{"at":"2026-` : the year's last digit.
          const at = position + index + 10;
          writeSync(fd, Buffer.from("7"), 0, 1, at);
          return;
        }
        if (chunk[index] === 0x0a) seen += 1;
      }
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}

describe("verify-audit on a log larger than its heap", () => {
  it("streams the log: the chain is checked in bounded memory, and a broken line is named without a stack trace", () => {
    const file = join(tempDir("verify-audit-"), "audit.jsonl");
    const generated = writeGeneratedLog(file, {
      records: RECORDS,
      fromMs: Date.parse("2025-01-01T00:00:00Z"),
      toMs: Date.parse("2026-01-01T00:00:00Z"),
      operators: ["treasury-bot"],
      currencies: ["solana_testnet"],
      amount: 1000n,
    });
    expect(statSync(file).size).toBeGreaterThan(HEAP_MB * 1024 * 1024);

    const intact = verifyAudit(file);
    expect(intact).toMatchObject({ status: 0, stderr: "" });
    const [verdict, heading, single, ...rest] = intact.stdout.split("\n");
    expect(verdict).toBe(`ok: ${RECORDS} records, chain intact, last hash ${generated.lastHash}`);
    // Who did what: no one signed in to write this log, so every record is the single user's.
    expect([heading, rest]).toEqual(["by person:", ["seal: none (a log written before seals, or never appended to since)", ""]]);
    expect(single).toMatch(new RegExp(`^  not signed in \\(a single user\\): ${RECORDS} records: [0-9]+ [a-z_]+`));

    editLine(file, 200_001);
    const broken = verifyAudit(file);
    expect(broken).toEqual({
      status: 1,
      stdout: "BROKEN: line 200001: hash does not match the line's content (200000 records verified before it)\n",
      stderr: "",
    });
  }, 120_000);

  it("reports a path it cannot read as a log, without a stack trace", () => {
    const dir = tempDir("verify-audit-dir-");
    const result = verifyAudit(dir);
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(new RegExp(`^verify-audit: ${dir}: cannot be read \\(audit log ${dir} is not a regular file`));
    expect(result.stderr).toBe("");
  });
});
