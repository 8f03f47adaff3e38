import { randomBytes } from "node:crypto";
import type { RunningEmulator } from "@custody/emulator";
import type { GuardStore } from "@custody/shared";
import { openPostgresGuardStore } from "@custody/shared/postgres-store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../../test/support/postgres-cluster.js";
import { resetWorkspace } from "./harness/control-plane.js";
import { pageRequest } from "./harness/page-request.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, connectSession, startTestEmulator, testContext, type TestContext } from "./harness/mcp-harness.js";

// Person mode across replicas on one PostgreSQL store: nothing a step needs lives only in the process
// that answered the one before. The dry run on one replica, the page served and decided on the other,
// the outcome read on the first.

const SECRET = randomBytes(32);
/** The person links the replicas opened in the person's browser. */
const opened: string[] = [];
let cluster: PostgresCluster;
let emulator: RunningEmulator;
const stores: GuardStore[] = [];
let replicas: [TestContext, TestContext];

beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
  const url = cluster.createDatabase("person");
  for (let index = 0; index < 2; index += 1) stores.push(await openPostgresGuardStore(url, {}));
  replicas = [0, 1].map((index) =>
    testContext(emulator, { policy: { confirmation: "person" }, tokenSecret: SECRET, store: stores[index], opener: (url) => opened.push(url) }),
  ) as [TestContext, TestContext];
}, 120_000);
afterAll(async () => {
  for (const replica of replicas ?? []) await replica.ctx.pages.close();
  for (const store of stores) await store.close();
  await emulator?.close();
  cluster?.stop();
});

const send = pageRequest;

it("a dry run on one replica is confirmed on the other's page and its outcome read back on the first", async () => {
  const [a, b] = await Promise.all(replicas.map((replica) => connectSession(replica.ctx)));
  try {
    const args = {
      account: DEMO.solTreasury,
      recipient: (await accountNamed(emulator, DEMO.solCold)).address,
      amount: "0.0123",
      unit: "SOL",
      note: "replicas",
    };
    const dry = await call(a!.client, "create_transaction", args);
    const reference = dry.structured.reference as string;
    const waiting = await call(b!.client, "create_transaction", { ...args, reference });
    expect(waiting.structured.status, waiting.text).toBe("waiting_for_person");
    // The extension reads only the file store: on PostgreSQL its view is not offered.
    expect(waiting.text).not.toContain("Waiting for You");
    const link = opened.at(-1) as string;
    expect(link).toMatch(/\/confirm\/p1\.[^?]+\?key=/);
    const page = await send("GET", link);
    expect(page.status, page.text).toBe(200);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)?.[1] ?? "";
    const form = new URLSearchParams({ secret: field("secret"), question: field("question"), decision: "confirm" }).toString();
    const decided = await send("POST", link, form, { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(link).origin });
    expect(decided.text).toContain("<h1>Submitted</h1>");
    const outcome = await call(a!.client, "create_transaction", { ...args, reference });
    expect(outcome.structured.status, outcome.text).toBe("submitted");
    expect([outcome.structured.transaction_id]).toEqual(await transactionsWithLabel(emulator, reference));
  } finally {
    await a?.close();
    await b?.close();
  }
});
