import type { AuditInput, AuditRecord } from "../audit/audit-entry.js";
import type { CommittedQuery } from "../audit/committed-amounts.js";
import type { DoubtfulQuery, UnansweredQuery, WriteTrace } from "../audit/write-traces.js";
import type { LimitScope } from "../policy/limit-scope.js";
import type { Finding } from "../schemas/finding.js";
import type { SavedWindows } from "./saved-windows.js";

/** A dry run whose confirmation is still possible: the latest one of its intent, by the same person, voids any earlier. */
export interface PreparedIntent {
  /**
   * What a newer dry run supersedes by: the intent's fingerprint (operator, kind, resolved account
   * or transaction, body) together with the person who ran it (intentKey), so one person's dry run
   * never voids another's.
   */
  fingerprint: string;
  /** The confirmation's single-use nonce. */
  nonce: string;
  operator: string;
  /** Milliseconds since the epoch; after it the nonce can no longer be redeemed. */
  expires_at: number;
  /** What the confirmation must rebuild (the road's sealed intent, as JSON): kept by the store, so a token only names the nonce. */
  sealed: string;
  /** Set on a dry run only a person can confirm (person mode): it joins their list of writes waiting for them (waitingIntents). */
  waiting_for?: { person: string | null } | undefined;
}

/** Whose decision person-mode dry runs wait for: the operator they write as and the person (their subject; null: a single user). */
export interface WaitingFor {
  operator: string;
  person: string | null;
}

/** A dry run waiting for its person: open (not used, not superseded) and not expired. */
export interface WaitingIntent {
  nonce: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
  sealed: string;
}

/** What a used intent names when its confirmation stopped before its reservation: declined, refused, blocked or failed; nothing sent. */
export const STOPPED_BEFORE_RESERVING = "";

export type Redemption =
  | { outcome: "redeemed"; sealed: string }
  /**
   * The nonce was redeemed before; `reference` names the write it went on to (its reservation), STOPPED_BEFORE_RESERVING when
   * its confirmation stopped before reserving (nothing was sent), null while its confirmation is still under way (or its
   * process stopped before reserving: nothing was sent either, but no process can tell which).
   */
  | { outcome: "reused"; reference: string | null }
  /** A newer dry run of the same intent was made; only its confirmation counts. */
  | { outcome: "superseded"; by_expires_at: number }
  /** The store never saw this nonce prepared (another store, or expired and forgotten). */
  | { outcome: "unknown" };

/** Where a prepared intent stands, read without using it: what redeeming it now would find. */
export type IntentStanding = { outcome: "open"; sealed: string } | Exclude<Redemption, { outcome: "redeemed" }>;

/** The newest doubtful writes, and whether they are all of the window's (not capped, not older than the store keeps at hand). */
export interface DoubtfulWrites {
  writes: WriteTrace[];
  complete: boolean;
}

/** What the reservation checks, atomically with appending its `reserved` record. */
export interface ReservationRequest {
  record: AuditInput;
  operator: string;
  fingerprint: string;
  reference: string;
  /** Earlier identical writes since this moment make this one a duplicate. */
  duplicatesSince: Date;
  /** The earlier write the person acknowledged repeating (repeatKey of its trace), or null. */
  repeatOf: string | null;
  /** The daily limits the write counts against (its operator's, its person's, the team's): each the check of what its scope's window already holds. */
  limits: ReadonlyArray<DailyLimitCheck>;
}

/** One daily limit a reservation must hold: what its scope committed in the currency since `since`, checked with the write's amount. */
export interface DailyLimitCheck {
  scope: LimitScope;
  currency: string;
  since: Date;
  check(spent: bigint): Finding | null;
}

export type ReservationResult =
  | { reserved: true; record: AuditRecord }
  | { reserved: false; reason: "duplicate"; earlier: WriteTrace }
  | { reserved: false; reason: "daily_limit"; finding: Finding };

/**
 * The guard's state behind one interface, so that every surface and every process sharing a store
 * keeps the same promises: one audit chain, daily limits that cannot be passed together, a nonce
 * used once, a dry run voided by a newer one of the same intent, never the same write twice.
 */
export interface GuardStore {
  /** Where the store lives, for messages (a file path, a database without its password). */
  readonly location: string;
  /** The store's clock: the time written on its records and the end of every window. */
  time(): Date;
  /** Appends one audit record continuing the chain. */
  append(input: AuditInput): Promise<AuditRecord>;
  /**
   * What a scope's writes (an operator's, a person's, everyone's) committed in the
   * currency since a moment (reserved, submitted or uncertain, not released).
   */
  committedSince(query: CommittedQuery): Promise<bigint>;
  /** Remembers a prepared intent; any earlier one of the same fingerprint can no longer be redeemed. */
  prepareIntent(intent: PreparedIntent): Promise<void>;
  /** Where the nonce's intent stands, without using it up: a question to the person is asked before it is redeemed. */
  lookUpIntent(nonce: string): Promise<IntentStanding>;
  /**
   * The dry runs waiting for this person's decision (prepared with `waiting_for` this person, by this operator), open and not
   * expired, soonest to expire first, at most `limit`: read through an index of the waiting ones,
   * so its cost is that of the writes still waiting, never of the history.
   */
  waitingIntents(query: WaitingFor, limit: number): Promise<WaitingIntent[]>;
  /** Uses the nonce once, ever: the first call for a nonce that is its intent's latest redeems it. */
  redeemIntent(nonce: string): Promise<Redemption>;
  /** Records that a redeemed nonce went on to the write with this reference. */
  linkNonce(nonce: string, reference: string): Promise<void>;
  /** This operator's writes of the intent since a moment, newest first. */
  recentWrites(query: { operator: string; fingerprint: string; since: Date }): Promise<WriteTrace[]>;
  /**
   * A write by its correlation reference, or null; with `since`, only one reserved since then, and
   * never read further back than it (a reference from untrusted text costs one look-up).
   */
  writeByReference(reference: string, since?: Date): Promise<WriteTrace | null>;
  /** The writes left unanswered (see UnansweredQuery), newest first, at most `limit`: what a process resumes looking up when it opens the store. */
  unansweredWrites(query: UnansweredQuery, limit: number): Promise<WriteTrace[]>;
  /** The writes of DoubtfulQuery, newest first, at most `limit`: read through the ledger or an index, never the whole log. */
  doubtfulWrites(query: DoubtfulQuery, limit: number): Promise<DoubtfulWrites>;
  /**
   * Appends the `reserved` record only if no earlier identical write in the window stands (other
   * than the acknowledged one) and every daily limit holds: no other writer of the store can reserve
   * between the checks and the append.
   */
  reserve(request: ReservationRequest): Promise<ReservationResult>;
  /**
   * The accounts' windows of the workspace's history that processes of this store verified, sealed
   * under its seal key: a new process starts from them and reads only what is new. Absent in a
   * store without a seal key: then every process's first read of an account reads its window whole.
   */
  readonly windows?: SavedWindows | undefined;
  /** Waits for the windows queued to be saved, then closes. */
  close(): Promise<void>;
}
