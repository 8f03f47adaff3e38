import { inTransaction, type Pool, type PoolClient } from "./database-pool.js";

export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/** The schema's history, oldest first; a version, once released, is never edited: a change is a new version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "audit chain, write traces, commitments, intents",
    statements: [
      // One row per audit record: `line` is the record exactly as the file log writes it.
      `CREATE TABLE custody_audit (
        seq bigint PRIMARY KEY,
        at timestamptz NOT NULL,
        event text NOT NULL,
        operator text NOT NULL,
        hash char(64) NOT NULL,
        line text NOT NULL,
        append_key uuid UNIQUE
      )`,
      `CREATE TABLE custody_write_traces (
        reference text PRIMARY KEY,
        operator text NOT NULL,
        fingerprint text NOT NULL,
        tool text NOT NULL,
        reserved_at timestamptz NOT NULL,
        status text NOT NULL,
        transaction_id bigint,
        repeat_of text
      )`,
      `CREATE INDEX custody_write_traces_intent ON custody_write_traces (operator, fingerprint, reserved_at DESC)`,
      `CREATE TABLE custody_commitments (
        operator text NOT NULL,
        key text NOT NULL,
        currency text NOT NULL,
        amount numeric NOT NULL,
        last_at timestamptz NOT NULL,
        PRIMARY KEY (operator, key, currency)
      )`,
      `CREATE INDEX custody_commitments_window ON custody_commitments (operator, currency, last_at) INCLUDE (amount)`,
      `CREATE TABLE custody_intents (
        nonce text PRIMARY KEY,
        fingerprint text NOT NULL,
        operator text NOT NULL,
        expires_at timestamptz NOT NULL,
        sealed text NOT NULL,
        redeemed_by uuid,
        reference text
      )`,
      `CREATE INDEX custody_intents_expiry ON custody_intents (expires_at)`,
      `CREATE TABLE custody_latest_intents (
        fingerprint text PRIMARY KEY,
        nonce text NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX custody_latest_intents_expiry ON custody_latest_intents (expires_at)`,
    ],
  },
  {
    version: 2,
    name: "the person of each commitment: per-person and team daily limits",
    statements: [
      // Null for writes made before people signed in (a single user's).
      `ALTER TABLE custody_commitments ADD COLUMN person text`,
      // False for an approval of a transaction the team's own write created and counted.
      `ALTER TABLE custody_commitments ADD COLUMN team boolean NOT NULL DEFAULT true`,
      `CREATE INDEX custody_commitments_person_window ON custody_commitments (person, currency, last_at) INCLUDE (amount) WHERE person IS NOT NULL`,
      `CREATE INDEX custody_commitments_team_window ON custody_commitments (currency, last_at) INCLUDE (amount) WHERE team`,
    ],
  },
  {
    version: 3,
    name: "what identifies each write before its POST, and the writes left unanswered",
    statements: [
      // Null for writes reserved before it was kept.
      `ALTER TABLE custody_write_traces ADD COLUMN recognition jsonb`,
      `ALTER TABLE custody_write_traces ADD COLUMN given_up boolean NOT NULL DEFAULT false`,
      "CREATE INDEX custody_write_traces_unanswered ON custody_write_traces (operator, reserved_at DESC) WHERE " +
        "transaction_id IS NULL AND status IN ('in_flight', 'uncertain') AND NOT given_up",
    ],
  },
  {
    version: 4,
    name: "the chain's sealed high-water mark",
    statements: [
      // One row: the last record's sequence number and hash, with an HMAC under the seal key (which the database never holds).
      `CREATE TABLE custody_audit_seal (
        id smallint PRIMARY KEY CHECK (id = 1),
        seq bigint NOT NULL,
        hash char(64) NOT NULL,
        key_id text NOT NULL,
        mac char(64) NOT NULL
      )`,
      // The chain's `sealed` records, found without reading it: a chain that has one was sealed, and must have its seal row.
      `CREATE INDEX custody_audit_sealed_records ON custody_audit (seq) WHERE event = 'sealed'`,
    ],
  },
  {
    version: 5,
    name: "when a write's answer was lost and when it was concluded",
    statements: [
      // Null for writes whose answer was never lost, and for those lost before this was kept.
      `ALTER TABLE custody_write_traces ADD COLUMN answer_lost_at timestamptz`,
      `ALTER TABLE custody_write_traces ADD COLUMN concluded_at timestamptz`,
      `ALTER TABLE custody_write_traces ADD COLUMN looked_for_ms bigint`,
      // list_activity's doubtful writes: those whose answer was lost, and those never answered (the unanswered index).
      `CREATE INDEX custody_write_traces_answer_lost ON custody_write_traces (operator, reserved_at DESC) WHERE answer_lost_at IS NOT NULL`,
      `CREATE INDEX custody_write_traces_in_flight ON custody_write_traces (operator, reserved_at DESC) WHERE transaction_id IS NULL AND status = 'in_flight'`,
    ],
  },
  {
    version: 6,
    name: "how many look-ups each write whose answer was lost had, and what the last found",
    statements: [
      // Folded from the `looked_up` records as they are appended; 0 and null for writes looked up before this was kept.
      `ALTER TABLE custody_write_traces ADD COLUMN lookups integer NOT NULL DEFAULT 0`,
      `ALTER TABLE custody_write_traces ADD COLUMN last_lookup jsonb`,
    ],
  },
  {
    version: 7,
    name: "the dry runs waiting for their person",
    statements: [
      // Null: a dry run anyone holding its token confirms; '' a single user's (no one signs in); else the person's subject.
      `ALTER TABLE custody_intents ADD COLUMN waiting_for text`,
      `CREATE INDEX custody_intents_waiting ON custody_intents (operator, waiting_for, expires_at) WHERE waiting_for IS NOT NULL AND redeemed_by IS NULL`,
    ],
  },
  {
    version: 8,
    name: "the chain's records by time: the window the derived rows are checked against",
    statements: [
      // A reservation folds the window's records to check custody_commitments and custody_write_traces against them (derived-rows.ts).
      `CREATE INDEX custody_audit_at ON custody_audit (at)`,
      // The open and verify-audit compare every derived row of the day with that fold.
      `CREATE INDEX custody_commitments_last_at ON custody_commitments (last_at)`,
      `CREATE INDEX custody_write_traces_reserved_at ON custody_write_traces (reserved_at)`,
    ],
  },
  {
    version: 9,
    name: "each account's window of the workspace's history, as a process last verified it",
    statements: [
      // One row per (workspace, account): the window sealed under the seal key (guard-store/saved-windows.ts), replaced whole.
      `CREATE TABLE custody_known_windows (
        workspace text NOT NULL,
        account_id bigint NOT NULL,
        body text NOT NULL,
        saved_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace, account_id)
      )`,
      // What a saved window is bound to: this database, whatever address a replica reaches it through (a copy of the rows into
      // another database does not verify there).
      `CREATE TABLE custody_store_identity (
        id smallint PRIMARY KEY CHECK (id = 1),
        identity uuid NOT NULL
      )`,
      `INSERT INTO custody_store_identity (id, identity) VALUES (1, gen_random_uuid())`,
    ],
  },
  {
    version: 10,
    name: "whom each write trace's write was made for",
    statements: [
      // The subject of the signed-in person; null for a single user's write and for rows written before this version.
      `ALTER TABLE custody_write_traces ADD COLUMN person text`,
    ],
  },
  {
    version: 11,
    name: "the request each person-mode write's dry run kept; every write trace of the day names its person",
    statements: [
      // Null for a write confirmed by token and for rows written before this version.
      `ALTER TABLE custody_write_traces ADD COLUMN kept_request jsonb`,
      // Then the day's rows written before version 10 get their person from the chain (open-postgres-store.ts): from here on
      // a row naming no person agrees with the chain only when the chain names none.
    ],
  },
  {
    version: 12,
    name: "what came back from each unclear POST; the writes never answered that a look-up concluded",
    statements: [
      // Null for a write whose answer was never unclear and for one recorded before this version (its record does not say).
      `ALTER TABLE custody_write_traces ADD COLUMN answer jsonb`,
      // list_activity's doubtful writes also include those never answered that a look-up concluded (concluded_at, no answer_lost_at).
      `CREATE INDEX custody_write_traces_concluded ON custody_write_traces (operator, reserved_at DESC) WHERE concluded_at IS NOT NULL`,
      // Then the day's rows of such writes get the conclusion the chain's fold now gives them (open-postgres-store.ts).
    ],
  },
];

/** The version from which a write trace's row keeps what came back from an unclear POST, and when a look-up concluded a write never answered. */
export const TRACE_CONCLUSION_VERSION = 12;

/** The version from which a write trace's row names its person whenever its audit record does (its rows filled in from the chain). */
export const TRACE_PERSON_VERSION = 11;

/** Advisory lock keys of this schema: (namespace, what). */
export const LOCK_NAMESPACE = 0x6375; // "cu"
export const CHAIN_LOCK = 1;
const MIGRATION_LOCK = 2;

/** The version that seals the chain: a chain it finds with records is sealed in the same transaction. */
export const SEAL_VERSION = 4;

/**
 * Brings the schema to the newest version this code knows, in one transaction under an advisory
 * lock (replicas starting together migrate once); refuses a schema newer than this code. Returns
 * the version the schema is at. `applied` runs after each version's statements, in the transaction.
 */
export async function migrateSchema(pool: Pool, applied: (client: PoolClient, version: number) => Promise<void> = async () => {}): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_NAMESPACE, MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS custody_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM custody_schema_migrations");
    const current = rows[0]?.version ?? 0;
    const newest = MIGRATIONS.at(-1)?.version ?? 0;
    if (current > newest) {
      throw new Error(`the store's schema is at version ${current}, newer than this program knows (${newest}): upgrade custody-mcp before using this database`);
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) await client.query(statement);
      await applied(client, migration.version);
      await client.query("INSERT INTO custody_schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
    }
    return newest;
  });
}
