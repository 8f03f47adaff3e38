import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  AuditSealKey,
  canonicalJson,
  CustodyClient,
  DEFAULT_POLICY,
  FileGuardStore,
  HISTORY_FIRST_PAGE,
  HISTORY_KNOWN_FIRST_PAGE,
  identicalInWorkspace,
  WriteRoad,
  type GuardStore,
  type PlannedWrite,
  type SavedRow,
  type WriteRequest,
} from "@custody/shared";
import { openPostgresGuardStore } from "@custody/shared/postgres-store";
import { startEmulator } from "@custody/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";

// Issue 18, never twice against the workspace: a process's first dry run on an account reads only what is new when a process of
// the same guard store read the account's window before (the store keeps it, sealed). Each "process" here is a new client and a
// new store object on the same file or database, with the road as the servers build it, against the emulator.

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emulator: Emulator;
let cluster: PostgresCluster;
beforeAll(async () => {
  [emulator, cluster] = await Promise.all([
    startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10, log: () => {} }),
    startPostgresCluster({ durable: false }),
  ]);
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  cluster?.stop();
});

async function control(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${emulator.controlUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: HTTP ${response.status} ${await response.text()}`);
}

beforeEach(() => control("/reset", { seed: "demo" }));

const OPERATOR = "treasury-bot";
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
/** 1.5 SOL, the identical write made elsewhere; 1.6 SOL, the first process's own. */
const SENT = 1_500_000_000n;
const OWN = 1_600_000_000n;
const key = new AuditSealKey(randomBytes(32));

/** A client that notes the account's history pages it asks for and the transactions it reads by id. */
class CountingClient extends CustodyClient {
  readonly pages: string[] = [];
  readonly byId: number[] = [];

  constructor() {
    super({ baseUrl: emulator.baseUrl, operator: OPERATOR, timeoutMs: 5000 });
  }

  override searchTransactions(...args: Parameters<CustodyClient["searchTransactions"]>) {
    const [query] = args;
    if (query?.account_id !== undefined) this.pages.push(`page ${query.page} of ${query.page_size}`);
    return super.searchTransactions(...args);
  }

  override getTransaction(...args: Parameters<CustodyClient["getTransaction"]>) {
    this.byId.push(args[0]);
    return super.getTransaction(...args);
  }
}

/** A client whose service answers the account's later pages with no rows while saying more follow: a read that stops partial. */
class ShortPagesClient extends CountingClient {
  short = true;

  override async searchTransactions(...args: Parameters<CustodyClient["searchTransactions"]>) {
    const answer = await super.searchTransactions(...args);
    const [query] = args;
    const cut = this.short && query?.account_id !== undefined && (query.page ?? 1) > 1;
    return cut ? { ...answer, edges: [], page_info: { ...answer.page_info, has_next_page: true } } : answer;
  }
}

/** A client whose service lists the account's first page with its two newest rows the other way round (a list ordered otherwise). */
class SwappedRowsClient extends CountingClient {
  override async searchTransactions(...args: Parameters<CustodyClient["searchTransactions"]>) {
    const answer = await super.searchTransactions(...args);
    const [query] = args;
    const [newest, next, ...rest] = answer.edges;
    const swap = query?.account_id !== undefined && (query.page ?? 1) === 1 && newest !== undefined && next !== undefined;
    return swap ? { ...answer, edges: [next, newest, ...rest] } : answer;
  }
}

/** Another operator's client whose view of the workspace lists every transaction but `hidden` (one without the view-all permission). */
class NarrowViewClient extends CustodyClient {
  constructor(private readonly hidden: number) {
    super({ baseUrl: emulator.baseUrl, operator: "staking-bot", timeoutMs: 5000 });
  }

  override async searchTransactions(...args: Parameters<CustodyClient["searchTransactions"]>) {
    const answer = await super.searchTransactions(...args);
    return { ...answer, edges: answer.edges.filter((edge) => edge.node.id !== this.hidden) };
  }
}

/** A guard store to open as often as a process starts, and what an attacker with access to it can do to the saved window. */
interface StoreKind {
  open(): Promise<GuardStore>;
  savedText(): string;
  replaceSaved(text: string): void;
  /** The store's name its windows are sealed for (what one holding the seal key seals a window with). */
  name(): string;
}

const kinds: Array<[string, () => StoreKind]> = [
  [
    "the file store",
    () => {
      const path = join(mkdtempSync(join(tmpdir(), "saved-windows-")), "audit.jsonl");
      const saved = () => {
        const files = readdirSync(`${path}.windows`).filter((name) => name.endsWith(".json"));
        expect(files).toHaveLength(1);
        return join(`${path}.windows`, files[0] as string);
      };
      return {
        open: async () => new FileGuardStore(path, undefined, { sealKey: key }),
        savedText: () => readFileSync(saved(), "utf8"),
        replaceSaved: (text) => writeFileSync(saved(), text),
        name: () => `file ${resolve(path)}`,
      };
    },
  ],
  [
    "the PostgreSQL store",
    () => {
      const url = cluster.createDatabase("windows");
      const name = url.split("/").at(-1) as string;
      return {
        open: () => openPostgresGuardStore(url, { sealKey: key, retryForMs: 0 }),
        savedText: () => cluster.psql(name, "SELECT body FROM custody_known_windows").trim(),
        replaceSaved: (text) => cluster.psql(name, `UPDATE custody_known_windows SET body = $saved$${text}$saved$`),
        name: () => `postgres ${cluster.psql(name, "SELECT identity::text FROM custody_store_identity WHERE id = 1").trim()}`,
      };
    },
  ],
];

/**
 * A saved window's text with its rows edited and sealed again with the store's key: what a build holding the key that saves rows
 * otherwise leaves (its seal verifies; its rows are not ones this build saves).
 */
function resealed(store: string, text: string, edit: (rows: SavedRow[]) => SavedRow[]): string {
  const [headerLine, head, rows] = text.split("\n") as [string, string, string];
  const header = JSON.parse(headerLine) as { format: string; workspace: string; account_id: number };
  const windowText = `${head}\n${JSON.stringify(edit(JSON.parse(rows) as SavedRow[]))}`;
  const content = `${canonicalJson({ format: header.format, store, workspace: header.workspace, account_id: header.account_id })}\n${windowText}`;
  return `${JSON.stringify({ ...header, mac: key.mac("custody known window", content) })}\n${windowText}`;
}

const send = (amount: bigint): WriteRequest => ({ kind: "send", account: "sol-treasury", recipient: RECIPIENT, amount, speed: "NORMAL" });
const call = { actor: { person: null } };

describe.each(kinds)("%s keeps each account's window for the next process", (_name, kindOf) => {
  let kind: StoreKind;
  const processes: Array<{ store: GuardStore }> = [];
  beforeEach(() => {
    kind = kindOf();
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map(({ store }) => store.close()));
  });

  /** A new process on the store: its own client (nothing read yet) and its own store object. */
  async function process(client = new CountingClient()) {
    const store = await kind.open();
    const road = new WriteRoad({ client, operator: OPERATOR, policy: () => DEFAULT_POLICY, store, surface: "test" });
    const started = { client, store, road };
    processes.push(started);
    return started;
  }

  /** The dry run's plan when it was blocked (its findings), failing the test otherwise. */
  async function blocked(road: WriteRoad, request: WriteRequest): Promise<PlannedWrite> {
    const result = await road.prepare(request, call);
    if (result.status !== "blocked") throw new Error(`the dry run was ${result.status}, not blocked`);
    return result.plan;
  }
  const codes = (plan: PlannedWrite) => plan.checks.filter((check) => check.severity !== "info").map((check) => check.code);
  const duplicateOf = (plan: PlannedWrite) => plan.checks.find((check) => check.code === "DUPLICATE_OF_RECENT")?.facts.earlier_transaction_id;

  /** A send of `amount` from sol-treasury made directly, not through the guard (another store, a person). */
  const sendDirectly = (direct: CustodyClient, amount: bigint) =>
    direct.createTransaction({ account_name: "sol-treasury", amount: String(amount), max_fees: "7500", recipient: RECIPIENT, speed: "NORMAL" });

  /** The same operator's identical send made elsewhere (another store), then `after` other sends of the account: a busy day. */
  async function identicalThenBusy(after: number): Promise<number> {
    const direct = new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR });
    const made = await sendDirectly(direct, SENT);
    for (let index = 0; index < after; index += 1) {
      await sendDirectly(direct, BigInt(1000 + index));
    }
    return made.id;
  }

  /** The first process: its dry run reads the window whole, and the store saves it. */
  async function firstProcessReads(): Promise<void> {
    const first = await process();
    expect(codes(await blocked(first.road, send(SENT)))).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(first.client.pages[0]).toBe(`page 1 of ${HISTORY_FIRST_PAGE}`);
    await first.store.windows?.settled();
  }

  it("a new process's first dry run reads one page and still finds the identical write the store kept a row of, and the first process's own", async () => {
    const identical = await identicalThenBusy(20);
    const first = await process();
    const prepared = await first.road.prepare(send(OWN), call);
    if (prepared.status !== "prepared") throw new Error(`the dry run was ${prepared.status}`);
    const committed = await first.road.commit(send(OWN), prepared.sealed.nonce, { ...call, consent: { ask: async () => ({ answer: "accepted" }) } });
    if (committed.status !== "submitted") throw new Error(`the confirmation was ${committed.status}`);
    await first.store.windows?.settled();

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(duplicateOf(again)).toBe(String(identical));
    // One page of 5, which reaches the newest transaction the first process read; the identical one, 22 rows down, was a row the
    // store kept, read again by id before it was compared.
    expect(second.client.pages).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`]);
    expect(second.client.byId).toContain(identical);
    const ownAgain = await blocked(second.road, send(OWN));
    expect(duplicateOf(ownAgain)).toBe(String(committed.transaction.id));
  });

  it.each([
    [
      "a row deleted",
      (text: string, identical: number) => {
        const row = `\\[${identical},\\d+,"[^"]*",(?:true|false)\\]`;
        return text.replace(new RegExp(`,${row}|${row},`), "");
      },
    ],
    ["its MAC changed", (text: string) => text.replace(/"mac":"(.)/, (_whole, first: string) => `"mac":"${first === "0" ? "1" : "0"}`)],
  ])("a saved window with %s is not trusted: the window is read whole, the duplicate found, and the dry run says so", async (_how, edit) => {
    const identical = await identicalThenBusy(20);
    await firstProcessReads();
    const text = kind.savedText();
    const edited = edit(text, identical);
    expect(edited).not.toBe(text);
    kind.replaceSaved(edited);

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT", "SAVED_WINDOW_REFUSED"]);
    expect(duplicateOf(again)).toBe(String(identical));
    expect(again.checks.find((check) => check.code === "SAVED_WINDOW_REFUSED")?.facts.reason).toContain("does not match its MAC");
    // The page a saved window's read starts with was asked while the window was checked; refused, the window is read from the start.
    expect(second.client.pages.slice(0, 2)).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`, `page 1 of ${HISTORY_FIRST_PAGE}`]);
    expect(second.client.pages.length).toBeGreaterThan(2);
  });

  it("an older sealed window put back in place of the newer one hides nothing: the identical write made between them is found", async () => {
    const first = await process();
    expect((await first.road.prepare(send(OWN), call)).status).toBe("prepared");
    await first.store.windows?.settled();
    const older = kind.savedText();
    const identical = await identicalThenBusy(8);
    const second = await process();
    expect(duplicateOf(await blocked(second.road, send(SENT)))).toBe(String(identical));
    await second.store.windows?.settled();
    expect(kind.savedText()).not.toBe(older);
    kind.replaceSaved(older);

    const third = await process();
    const again = await blocked(third.road, send(SENT));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(duplicateOf(again)).toBe(String(identical));
    // Read from the workspace down to the older window's newest transaction: more than the one page a newer window takes.
    expect(third.client.pages.length).toBeGreaterThan(1);
  });

  it("a window kept by an earlier version (format 1) is read whole without a warning and kept anew: the process after reads one page", async () => {
    const identical = await identicalThenBusy(20);
    await firstProcessReads();
    // Format 1: the header, then the whole window (its rows in it) on one line; what the MAC covered then is not checked here.
    const [header, head, rows] = kind.savedText().split("\n") as [string, string, string];
    const { count: _count, last_created_ms: _last, earliest_created_ms: _earliest, ...window } = JSON.parse(head) as Record<string, unknown>;
    const earlier = `${header.replace(/"custody-known-window\/2 /, '"custody-known-window/1 ')}\n${JSON.stringify({ ...window, rows: JSON.parse(rows) })}`;
    expect(earlier).toContain('"custody-known-window/1 ');
    kind.replaceSaved(earlier);

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(duplicateOf(again)).toBe(String(identical));
    expect(second.client.pages.slice(0, 2)).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`, `page 1 of ${HISTORY_FIRST_PAGE}`]);
    await second.store.windows?.settled();
    expect(kind.savedText()).toContain('"custody-known-window/2 ');

    const third = await process();
    expect(duplicateOf(await blocked(third.road, send(SENT)))).toBe(String(identical));
    expect(third.client.pages).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`]);
  });

  it.each<[string, (rows: SavedRow[], identical: number) => SavedRow[], boolean]>([
    ["rows out of order, read whole for a transaction made since", ([newest, next, ...rest]) => [next, newest, ...rest] as SavedRow[], true],
    [
      "a row newer than the window's newest, found by its key",
      (rows, identical) => rows.map(([id, ...row]) => [id === identical ? id + 1e6 : id, ...row]),
      false,
    ],
  ])("a saved window whose seal verifies but whose rows this build does not save (%s) is read whole, said, and kept anew", async (_how, edit, newSince) => {
    const identical = await identicalThenBusy(20);
    await firstProcessReads();
    const text = kind.savedText();
    expect(resealed(kind.name(), text, (rows) => rows)).toBe(text);
    kind.replaceSaved(resealed(kind.name(), text, (rows) => edit(rows, identical)));
    if (newSince) await sendDirectly(new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR }), 999n);

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT", "SAVED_WINDOW_REFUSED"]);
    expect(duplicateOf(again)).toBe(String(identical));
    expect(again.checks.find((check) => check.code === "SAVED_WINDOW_REFUSED")?.facts.reason).toBe("its rows are not ones this guard saves");
    await second.store.windows?.settled();

    const third = await process();
    const after = await blocked(third.road, send(SENT));
    expect(codes(after)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(third.client.pages).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`]);
  });

  it("a window read in part while the service answered short pages is read again whole, by the next process and by its own", async () => {
    const identical = await identicalThenBusy(20);
    const client = new ShortPagesClient();
    const first = await process(client);
    const prepared = await first.road.prepare(send(OWN), call);
    if (prepared.status !== "prepared") throw new Error(`the dry run was ${prepared.status}`);
    expect(prepared.plan.checks.map((check) => check.code)).toContain("WORKSPACE_HISTORY_PARTIAL");
    await first.store.windows?.settled();

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(duplicateOf(again)).toBe(String(identical));
    // The first process, once its service answers whole pages again, does not go on from what it read in part either.
    client.short = false;
    expect(duplicateOf(await blocked(first.road, send(SENT)))).toBe(String(identical));
  });

  it("a window saved from a list not in id order blocks no later dry run: the next processes find the duplicate", async () => {
    const identical = await identicalThenBusy(20);
    const first = await process(new SwappedRowsClient());
    expect(duplicateOf(await blocked(first.road, send(SENT)))).toBe(String(identical));
    await first.store.windows?.settled();
    // A transaction made since: the next processes' reads have a new row to put before the saved ones.
    await sendDirectly(new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR }), 999n);

    for (const next of [await process(), await process()]) {
      const again = await blocked(next.road, send(SENT));
      expect(codes(again)).toContain("DUPLICATE_OF_RECENT");
      expect(codes(again)).not.toContain("WORKSPACE_HISTORY_UNREAD");
      expect(duplicateOf(again)).toBe(String(identical));
    }
  });

  it("a window read by another operator, who may be shown less of the workspace, is not this operator's: the duplicate is found", async () => {
    const identical = await identicalThenBusy(1);
    const other = await kind.open();
    processes.push({ store: other });
    const narrow = new NarrowViewClient(identical);
    const account = await narrow.getAccount((await narrow.getTransaction(identical)).account_id);
    const everything = { account, operator: "staking-bot", lostAnswer: { by: "reference" as const, expected: {} } };
    const since = new Date(narrow.serviceNow().getTime() - 24 * 60 * 60 * 1000);
    await identicalInWorkspace(narrow, everything, since, { saved: other.windows });
    await other.windows?.settled();

    const second = await process();
    expect(duplicateOf(await blocked(second.road, send(SENT)))).toBe(String(identical));
  });

  it("a write with more candidates among the kept rows than are read by id has the window read whole instead", async () => {
    const direct = new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR });
    const identical: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      identical.push((await sendDirectly(direct, SENT)).id);
    }
    identical.push(await identicalThenBusy(0));
    await firstProcessReads();

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(duplicateOf(again)).toBe(String(identical.at(-1)));
    // Eleven rows with the write's key: the window is read from the start (its rows then are the transactions), none by id.
    expect(second.client.pages.slice(0, 2)).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`, `page 1 of ${HISTORY_FIRST_PAGE}`]);
    expect(second.client.byId.filter((id) => identical.includes(id))).toEqual([]);
  });

  it("a workspace reset (the saved newest transaction is not where it was) is read whole; the window saved then serves the next process", async () => {
    await identicalThenBusy(5);
    await firstProcessReads();
    await control("/reset", { seed: "demo" });
    const identical = await identicalThenBusy(0);

    const second = await process();
    const again = await blocked(second.road, send(SENT));
    expect(duplicateOf(again)).toBe(String(identical));
    expect(codes(again)).toEqual(["DUPLICATE_OF_RECENT"]);
    expect(second.client.pages).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`, `page 1 of ${HISTORY_FIRST_PAGE}`]);
    await second.store.windows?.settled();

    const third = await process();
    expect(duplicateOf(await blocked(third.road, send(SENT)))).toBe(String(identical));
    expect(third.client.pages).toEqual([`page 1 of ${HISTORY_KNOWN_FIRST_PAGE}`]);
  });
});
