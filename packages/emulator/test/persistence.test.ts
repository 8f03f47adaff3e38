import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Transaction } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator } from "../src/index.js";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { advance, createAccount, expectStatus, governance, operatorsRule, registerOperator, startHarness, type Harness } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { tempDir } from "./support/temp-dir.js";
import { decode } from "./support/wire.js";

const SOL = 1_000_000_000n;

/** The state as the API shows it; `confirmations` left out, since it grows with the real time between two readings. */
async function snapshotOf(h: Harness): Promise<string> {
  const parts = await Promise.all(["/accounts?page_size=1000", "/transactions?page_size=1000", "/users?page_size=1000"].map((path) => h.api("op-a").get(path)));
  return parts.map((part) => part.text.replace(/"confirmations":\d+/g, '"confirmations":"(time-dependent)"')).join("\n");
}

describe("persistence: the state survives a restart", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    dir.remove();
  });

  async function populate(h: Harness): Promise<void> {
    await registerOperator(h, "op-a");
    await createAccount(h, "sol-a", "solana_testnet", 100n * SOL, governance(operatorsRule("op-a")));
    for (let index = 0; index < 5; index += 1) {
      expectStatus(
        await h
          .api("op-a")
          .post("/transactions", { account_name: "sol-a", amount: String(index + 1), max_fees: "7500", recipient: externalSolana("p"), speed: "NORMAL" }),
        200,
      );
    }
    await h.api("op-a").get("/accounts");
  }

  it("everything acknowledged is there after close and start, including the clock and the HSM addresses", async () => {
    const first = await startHarness({ dataDir: dir.path });
    await populate(first);
    await advance(first, { seconds: 3600 });
    const before = await snapshotOf(first);
    const clock = obj(await first.control.get("/clock"));
    await first.close();
    const second = await startHarness({ dataDir: dir.path, seed: "demo" });
    expect(await snapshotOf(second)).toBe(before);
    const after = obj(await second.control.get("/clock"));
    expect(after.offset_ms).toBe(clock.offset_ms);
    await second.close();
  });

  it("a torn last journal line (a write the crash cut short) is dropped; the rest is kept", async () => {
    const first = await startHarness({ dataDir: dir.path });
    await populate(first);
    const before = await snapshotOf(first);
    await first.close();
    const journal = readdirSync(join(dir.path, "state")).filter((name) => name.startsWith("journal-"));
    expect(journal).toHaveLength(1);
    appendFileSync(join(dir.path, "state", journal[0] ?? ""), '0badc0de {"seq":999,"changes":[["accounts","1",{"id');
    const second = await startHarness({ dataDir: dir.path });
    expect(await snapshotOf(second)).toBe(before);
    await second.close();
  });

  it("a damaged line that is not the last refuses to start, naming the file and the line", async () => {
    const first = await startHarness({ dataDir: dir.path });
    await populate(first);
    await expectStatus(await first.control.post("/accounts", { name: "x", currency: "polkadot", governance: governance(operatorsRule("op-a")) }), 200);
    await first.control.post("/accounts/2/deposit", { amount: "5" });
    await first.close();
    // Recreate a journal with a damaged line in the middle: replay the current journal's lines around a bad one.
    const stateDir = join(dir.path, "state");
    const name = readdirSync(stateDir).find((file) => file.startsWith("journal-")) ?? "";
    writeFileSync(join(stateDir, name), 'deadbeef {"seq":1}\n00000000 {}\n');
    await expect(startEmulator({ dataDir: dir.path, log: () => undefined })).rejects.toThrow(/line 1 is damaged and is not the last line/);
  });

  it("keeps the HSM master secret in the data directory, private, and never in an answer", async () => {
    const h = await startHarness({ dataDir: dir.path, seed: "demo" });
    const secretPath = join(dir.path, "hsm", "master.key");
    expect(statSync(secretPath).mode & 0o777).toBe(0o600);
    const secretHex = readFileSync(secretPath).toString("hex");
    const answers = await Promise.all(
      ["/accounts?page_size=1000", "/transactions?page_size=1000", "/users?page_size=1000"].map((path) => h.api("treasury-bot").get(path)),
    );
    for (const answer of answers) expect(answer.text.includes(secretHex)).toBe(false);
    const tx = decode(Transaction, await h.api("treasury-bot").get("/transactions/3"));
    expect(tx.tx_hash).not.toBeNull();
    await h.close();
  });

  it("two emulators cannot use the same data directory at once", async () => {
    const h = await startHarness({ dataDir: dir.path });
    await expect(startEmulator({ dataDir: dir.path, log: () => undefined })).rejects.toThrow(/is in use by process/);
    await h.close();
  });

  it("operator secrets go where USER_STORAGE_PATH and CERT_STORAGE_PATH say (FILESYSTEM)", async () => {
    const users = join(dir.path, "users");
    const certs = join(dir.path, "certs");
    const h = await startHarness({
      env: { USER_STORAGE_BACKEND: "FILESYSTEM", USER_STORAGE_PATH: users, CERT_STORAGE_BACKEND: "FILESYSTEM", CERT_STORAGE_PATH: certs },
    });
    await h.api("ops-bot").post("/api_users", { name: "ops-bot" });
    const secret = JSON.parse(readFileSync(join(users, "ops-bot.json"), "utf8")) as { secret_key: string };
    expect(secret.secret_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(readFileSync(join(certs, "ops-bot.json"), "utf8"))).toMatchObject({ name: "ops-bot" });
    await h.close();
    await expect(startEmulator({ env: { USER_STORAGE_BACKEND: "S3" }, log: () => undefined })).rejects.toThrow(
      /USER_STORAGE_BACKEND: only FILESYSTEM is supported/,
    );
  });
});
