import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileGuardStore, verifyAuditLog } from "@custody/shared";
import { openPostgresGuardStore, verifyPostgresAudit } from "@custody/shared/postgres-store";
import { afterAll, beforeAll } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";
import { describeGuardStore } from "./guard-store-behaviours.js";

/** One clock for every store of this file, strictly increasing: records made one after another never share a millisecond. */
let last = 0;
const now = () => new Date((last = Math.max(Date.now(), last + 1)));

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
}, 120_000);
afterAll(() => cluster?.stop());

describeGuardStore("the file store", {
  async fresh() {
    const path = join(mkdtempSync(join(tmpdir(), "guard-store-")), "audit.jsonl");
    return { store: new FileGuardStore(path, now), twin: async () => new FileGuardStore(path, now), verify: async () => verifyAuditLog(path) };
  },
  first: 1,
});

describeGuardStore("the PostgreSQL store", {
  async fresh() {
    const url = cluster.createDatabase("behaviours");
    return { store: await openPostgresGuardStore(url, { now }), twin: () => openPostgresGuardStore(url, { now }), verify: () => verifyPostgresAudit(url) };
  },
  first: 0,
});
