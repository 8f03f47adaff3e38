import type { RacedWrite } from "./race-after-send.js";
import { z } from "zod";
import { LocalTextJson } from "../l10n/local-text-json.js";
import type { LocalText } from "../l10n/translate.js";
import type { CustodyClient } from "../client/custody-client.js";
import type { GuardStore } from "../guard-store/guard-store.js";
import type { WriteTrace } from "../audit/write-traces.js";
import type { Person } from "../identity/person.js";
import type { Policy } from "../policy/policy.js";
import type { Finding } from "../schemas/finding.js";
import type { Transaction } from "../schemas/transaction.js";
import type { Candidate } from "./lost-answer-lookup.js";
import type { PlannedWrite } from "./planned-write.js";
import type { SubmissionStanding } from "./submission-standing.js";

/** What the road needs from the process it runs in; one road per client. */
export interface RoadPorts {
  client: CustodyClient;
  /** The operator the client calls as (X-Vendor-API-User). */
  operator: string;
  /** The local policy, read for each write (a surface may reload its file). */
  policy(): Policy;
  /** The guard's state: audit chain, daily limits, intents, nonces. Its clock is the road's. */
  store: GuardStore;
  /** The surface named on every audit record: "mcp", "vscode". */
  surface: string;
  /** How long a dry run can be confirmed; default 5 minutes. */
  intentTtlMs?: number;
  /** An identical write within this window is a duplicate unless acknowledged; default 24 hours. */
  duplicateWindowMs?: number;
  /** How long a lost answer is looked up in the background; default four times the client's timeout, at least a minute. */
  lookupHorizonMs?: number;
  /** The first pause of the background look-ups; default 1 s. */
  lookupFirstDelayMs?: number;
  /** How often the writes a stopped process left unanswered (reserved well over a horizon ago) are looked up; default the horizon, at least a minute. */
  lookupSweepMs?: number;
  /** How long a submitted write approved at once is followed until broadcast (its fee and hash); default 5 s. */
  broadcastWaitMs?: number;
  /** Whether the duplicate check reads the account's transactions in the window; default true. False only to measure what it costs (`pnpm bench`). */
  readWorkspaceHistory?: boolean;
}

/** Who asks: a confirmation is accepted only from the person that ran the dry run, whichever session or replica they ask through. */
export interface RoadActor {
  /** The signed-in person (their role in the policy applies to them), or null: a single user, the server's one principal. */
  person: Person | null;
}

export interface RoadCall {
  actor: RoadActor;
  signal?: AbortSignal | undefined;
  /** Told when a long step starts (progress notifications, a progress bar). */
  progress?(message: string): void;
  /**
   * The dry run's nonce, from its reference: a surface whose answers must not carry what confirms
   * (person mode) derives it under its own secret, so that only the surface can name the intent
   * again. Absent: a random nonce, which the surface hands out in its token.
   */
  nonceFor?(reference: string): string;
}

/**
 * Where a person decided a write: their client's form (or the extension's modal for its own writes), the server's
 * confirmation page, the extension's "Waiting for you" view, the MCP App view their client rendered.
 */
export type ConsentSurface = "form" | "page" | "vscode" | "view";

export type Consent =
  { answer: "accepted"; through?: ConsentSurface } | { answer: "not_asked" } | { answer: "declined" | "cancelled"; detail: string; through?: ConsentSurface };

/** The person's consent, as the surface obtains it (a form, a modal): asked after every check passed, before the final one. */
export interface ConsentPort {
  ask(plan: PlannedWrite, timeoutMs: number): Promise<Consent>;
}

/**
 * What a confirmation must rebuild exactly, kept by the guard's store under the intent's nonce: a
 * surface carries only the nonce (in a signed token, or in memory).
 */
export const SealedIntent = z.strictObject({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** Milliseconds since the epoch. */
  expires_at: z.int().nonnegative(),
  correlation_id: z.string(),
  /** The max_fees the dry run proposed (base units, digits), or null. */
  max_fees: z
    .string()
    .regex(/^[0-9]+$/)
    .nullable(),
  /** The account the person saw, by id: the name must still resolve to it. */
  account_id: z.int().positive(),
  transaction_id: z.int().positive().nullable(),
  tool: z.string(),
  /** Written by servers that bound a confirmation to its session (before 2026-11); ignored: the person is the binding. */
  session: z.string().optional(),
  /** The subject of the person who ran the dry run, or null (a single user): only they can confirm it. */
  person: z.string().nullable(),
  /**
   * The custody service the dry run was planned against (its base URL): a store is shared by every
   * surface of the machine's user and names no service, so a confirmation through another (a
   * staging copy with the same operator and account ids) is refused. Absent: sealed before it was kept.
   */
  service: z.string().optional(),
  /** The fee the dry run showed (base units, digits), shown again when the person is asked; not estimated again. */
  fee: z
    .string()
    .regex(/^[0-9]+$/)
    .nullable()
    .optional(),
  /** The balances the dry run showed, before and after (base units), shown again when the person is asked: the question repeats the dry run's figures. */
  balances: z.array(z.strictObject({ name: z.string(), before: z.string().regex(/^-?[0-9]+$/), after: z.string().regex(/^-?[0-9]+$/) })).optional(),
  /**
   * The request itself, encoded (amounts as digit strings), kept when its nonce is derived (person
   * mode): a surface that never saw the tool's arguments (the confirmation page) confirms it.
   */
  request: z.unknown().optional(),
  /** What moves, as the dry run said it in one line (sanitised), for the lists of writes waiting for their person. */
  moves: z.string().optional(),
  /**
   * The same as its template and values, so a list shows it in its reader's language (`moves` in
   * English). Absent: sealed before it was kept; one out of bounds is dropped, never a reason to refuse the intent.
   */
  moves_text: LocalTextJson.optional().catch(undefined),
  /** The digest of each field the dry run's digest covers, so a confirmation that differs names the field. */
  fields: z.record(z.string(), z.string().regex(/^[0-9a-f]{16}$/)).optional(),
  /** The identical transactions of others the dry run named (SIMILAR_RECENT): one created since blocks the confirmation. */
  similar: z.array(z.int().positive()).optional(),
});
export type SealedIntent = z.infer<typeof SealedIntent>;

/** Why the road refused a call; nothing was sent. */
export type RefusalReason =
  | "permission"
  | "other_tool"
  | "other_person"
  | "expired"
  | "reused"
  | "superseded"
  | "unknown_intent"
  | "binding_changed"
  | "digest_mismatch"
  | "other_service";

export type Stage = "dry_run" | "confirm" | "send_check" | "reserve";

export type PrepareResult =
  | { status: "prepared"; plan: PlannedWrite; digest: string; sealed: SealedIntent; earlier: WriteTrace | null }
  | { status: "blocked"; plan: PlannedWrite; stage: Stage }
  | { status: "refused"; reason: RefusalReason; message: string; text: LocalText }
  | { status: "failed"; message: string; text: LocalText };

export type CommitResult =
  /** `message` in English (recorded, answered by the MCP server); `text` the same as its template and values, for a surface to translate. */
  | { status: "refused"; reason: RefusalReason; message: string; text: LocalText; plan?: PlannedWrite; transaction_id?: number | null }
  | { status: "blocked"; plan: PlannedWrite; stage: Stage }
  | { status: "declined"; plan: PlannedWrite; detail: string }
  /** Nothing was sent: a step before the POST failed. */
  | { status: "failed"; message: string; text: LocalText; plan?: PlannedWrite }
  /** The POST was made and certainly not applied: the service refused it, or it never left. */
  | { status: "rejected"; plan: PlannedWrite; message: string; text: LocalText; audit_problem: LocalText | null }
  | {
      status: "submitted";
      plan: PlannedWrite;
      transaction: Transaction;
      looked_up: boolean;
      audit_problem: LocalText | null;
      standing?: SubmissionStanding;
      raced?: RacedWrite;
    }
  /** The answer was lost: it may be applied; the road keeps looking it up in the background. */
  | { status: "uncertain"; plan: PlannedWrite; message: string; text: LocalText; candidates: Candidate[]; audit_problem: LocalText | null };

/** The question to put to the person before a confirmation: the plan checked again on fresh data, with the dry run's figures. */
export type QuestionResult = { status: "question"; plan: PlannedWrite; sealed: SealedIntent } | StoppedBeforeSending;

/** A confirmation that stopped before anything could be sent: refused, blocked by a check, or failed to plan. */
export type StoppedBeforeSending = Extract<CommitResult, { status: "refused" | "blocked" | "failed" }>;

/** The outcome of a duplicate check: the finding to show, and the earlier write it names. */
export interface DuplicateVerdict {
  finding: Finding | null;
  earlier: WriteTrace | null;
  /** What the workspace's own history adds: identical writes of others (SIMILAR_RECENT), a partial or failed read. */
  warnings: Finding[];
  /** The ids of the identical transactions of other operators or people that SIMILAR_RECENT names. */
  similar: number[];
  /** The acknowledgement the store's reservation checks: its own newest identical write when the person acknowledged a newer one it does not know. */
  storeRepeatOf: string | null;
}
