import { Transaction, TransactionPage } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { buildEmulator } from "./support/build-once.js";
import { HttpCaller, obj } from "./support/http-client.js";
import { spawnCli, waitForExit, type CliProcess } from "./support/spawn-cli.js";
import { tempDir } from "./support/temp-dir.js";
import { decode } from "./support/wire.js";

const SOL = 1_000_000_000n;
const INITIAL = 1000n * SOL;
/** The kill's offset into a burst under way: the test's parameter, not a wait for some state. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function register(service: HttpCaller, control: HttpCaller, name: string): Promise<void> {
  const created = obj(await service.as(name).post("/api_users", { name }));
  const invitation = obj(await control.post("/invitations", { username: name, device_id: created.device_id }));
  await service.as(name).post(`/api_users/${name}/register/${String(invitation.uuid)}`);
  await control.post(`/users/${name}/approve`, { admin: "alice.admin" });
  await control.post(`/users/${name}/approve`, { admin: "bob.admin" });
}

const rule = { creators: [{ username: "op", is_api: true }], steps: [{ quorum: 1, approvers: [{ username: "op", is_api: true }] }] };

async function ledger(service: HttpCaller): Promise<{ total: bigint; negative: boolean; transactions: Transaction[] }> {
  const accounts = obj(await service.get("/accounts?page_size=1000")).edges as { node: { balance: string; available_balance: string } }[];
  const page = decode(TransactionPage, await service.get("/transactions?page_size=1000"));
  const transactions = page.edges.map((edge) => edge.node);
  const fees = transactions.reduce((sum, tx) => sum + (tx.fees ?? 0n), 0n);
  const external = transactions.filter((tx) => tx.status === "SUBMITTED" && tx.recipient === externalSolana("away")).reduce((sum, tx) => sum + tx.amount, 0n);
  const held = accounts.reduce((sum, edge) => sum + BigInt(edge.node.balance), 0n);
  const negative = accounts.some((edge) => edge.node.balance.startsWith("-") || edge.node.available_balance.startsWith("-"));
  return { total: held + fees + external, negative, transactions };
}

describe("crash safety: kill -9 during writes loses nothing acknowledged and leaves nothing half-applied", () => {
  beforeAll(() => buildEmulator(), 120_000);
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterAll(() => dirs.forEach((dir) => dir.remove()));

  for (const killAfterMs of [120, 450, 900]) {
    it(`killed ${killAfterMs} ms after the first write of a burst of concurrent writes is acknowledged`, async () => {
      const dir = tempDir();
      dirs.push(dir);
      const args = ["serve", "--port", "0", "--data-dir", dir.path, "--seed", "empty", "--processing-delay-ms", "0"];
      let running: CliProcess = await spawnCli(args);
      let service = new HttpCaller(running.ready.base_url).as("op");
      let control = new HttpCaller(running.ready.control_url);
      await register(service, control, "op");
      await control.post("/accounts", {
        name: "a",
        currency: "solana_testnet",
        governance: { transaction: rule, staking: null, smart_contract: null },
        balance: INITIAL.toString(),
      });
      const b = obj(
        await control.post("/accounts", { name: "b", currency: "solana_testnet", governance: { transaction: rule, staking: null, smart_contract: null } }),
      );

      const acknowledged = new Map<number, bigint>();
      let firstAcknowledged = () => {};
      const acknowledgedOnce = new Promise<void>((resolve) => (firstAcknowledged = resolve));
      let stop = false;
      const worker = async (seed: number) => {
        for (let index = 0; !stop; index += 1) {
          const amount = BigInt(((seed * 7919 + index * 104_729) % 1_000_000) + 1);
          const recipient = index % 3 === 0 ? externalSolana("away") : (b.address as string);
          try {
            const answer = await service.post("/transactions", { account_name: "a", amount: amount.toString(), max_fees: "7500", recipient, speed: "NORMAL" });
            if (answer.status === 200) {
              acknowledged.set(decode(Transaction, answer).id, amount);
              firstAcknowledged();
            }
          } catch {
            return;
          }
        }
      };
      const workers = Array.from({ length: 6 }, (_, seed) => worker(seed));
      // The burst is under way once a write is acknowledged (or every worker stopped, which fails below); the kill comes killAfterMs after that.
      await Promise.race([acknowledgedOnce, Promise.all(workers)]);
      expect(acknowledged.size).toBeGreaterThan(0);
      await sleep(killAfterMs);
      running.child.kill("SIGKILL");
      await waitForExit(running.child);
      stop = true;
      await Promise.all(workers);

      running = await spawnCli(args);
      service = new HttpCaller(running.ready.base_url).as("op");
      control = new HttpCaller(running.ready.control_url);
      for (const [id, amount] of acknowledged) {
        const tx = decode(Transaction, await service.get(`/transactions/${id}`));
        expect(tx.amount).toBe(amount);
        expect((await service.get(`/transactions/${id}/history`)).status).toBe(200);
      }
      // Processed on request (the scheduler catches up and the store is durable when it answers), not after some time.
      await control.post("/process");
      const after = await ledger(service);
      const ids = after.transactions.map((tx) => tx.id).sort((x, y) => x - y);
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
      expect(after.transactions.every((tx) => tx.status === "SUBMITTED")).toBe(true);
      expect(after.negative).toBe(false);
      expect(after.total).toBe(INITIAL);
      running.child.kill("SIGTERM");
      expect(await waitForExit(running.child)).toBe(0);
    }, 60_000);
  }
});
