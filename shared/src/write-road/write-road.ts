import { randomBytes } from "node:crypto";
import type { AuditInput } from "../audit/audit-entry.js";
import type { AuditEventName } from "../audit/audit-events.js";
import { committedDetails, NOT_APPLIED_OUTCOME, TEAM_COUNTED_BY } from "../audit/committed-amounts.js";
import { FOUND_OUTCOME } from "../guard-store/write-traces.js";
import type { IntentStanding, WriteTrace } from "../guard-store/guard-store.js";
import { personOnRecord, type Person, type PersonOnRecord } from "../identity/person.js";
import { DAILY_LIMIT_WINDOW_MS, checkDailyLimit } from "../policy/daily-limit.js";
import type { LimitSet } from "../policy/limit-scope.js";
import { grantFor, limitSetsFor, type Grant } from "../policy/person-grant.js";
import type { Policy } from "../policy/policy.js";
import { hasBlocking, type Finding } from "../schemas/finding.js";
import { referencesIn } from "../kinds/kit/correlation-reference.js";
import type { Transaction } from "../schemas/transaction.js";
import type { PlanContext } from "../kinds/kit/plan-context.js";
import { SerialByKey, writeSerialKey } from "../audit/serial-by-key.js";
import { writeSpec, type WriteRequest } from "../kinds/registry.js";
import { keptRequest } from "./kept-request.js";
import { asShownInDryRun, sealIntent, sealRequest } from "./intent-seal.js";
import { INTENT_CHECKS } from "./intent-checks.js";
import { PLAN_CHECKS } from "./plan-checks.js";
import { firstRefusal } from "./road-check.js";
import { writePermission } from "./write-permission.js";
import { unknownOutcomeText } from "./unknown-outcome-text.js";
import { BackgroundLookups, type LookupConclusion, type WatchedWrite } from "./background-lookups.js";
import { checkDuplicate, type DuplicateContext } from "./duplicate-check.js";
import { planWrite } from "./plan-write.js";
import type { PlannedWrite } from "./planned-write.js";
import { intentFingerprint, requestDigest, supersedeKey } from "./request-digest.js";
import { SealedIntent, type CommitResult, type DuplicateVerdict, type ConsentPort, type PrepareResult, type QuestionResult, type RefusalReason, type RoadCall, type RoadPorts, type Stage, type StoppedBeforeSending } from "./road-types.js";
import { recognitionOf } from "./lost-answer-lookup.js";
import { recordLookup } from "./lookup-record.js";
import { callRecord, lookedUpRecord, planRecord, resolvedRecord, type CallEntry, type RecordTail } from "./road-records.js";
import { sendOnce } from "./send-once.js";
import { similarSinceDryRun } from "./workspace-duplicates.js";
import { HistoryPrefetch } from "./workspace-history.js";
import { followSubmission } from "./submission-standing.js";

type Refused = Extract<CommitResult, { status: "refused" }>;
type Refuse = (reason: RefusalReason, message: string, plan?: PlannedWrite, extra?: Record<string, unknown>) => Promise<Refused>;

const DEFAULT_INTENT_TTL_MS = 5 * 60 * 1000;
const DEFAULT_BROADCAST_WAIT_MS = 5000;

/**
 * One per process, shared by every road in it (every MCP session, every VS Code connection): the
 * last check, the reservation and the POST of one operator's writes in one currency run one at a
 * time, so the next write plans against a settled balance. Across processes, the store's
 * reservation is what is atomic.
 */
const WRITES_IN_FLIGHT = new SerialByKey();
const MIN_LOOKUP_HORIZON_MS = 60_000;
/** At most this many unanswered writes are resumed when a road opens its store: the newest, a bounded read. */
const MAX_RESUMED_LOOKUPS = 100;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The subject a call's person is bound by, or null (a single user). */
function subjectOf(call: RoadCall): string | null {
  return call.actor.person?.subject ?? null;
}

/** The person a call's records name. */
function whoOf(call: RoadCall): PersonOnRecord | null {
  return call.actor.person === null ? null : personOnRecord(call.actor.person);
}

/** The checks with the daily-limit finding replaced by the reservation's verdict. */
function withFinding(checks: readonly Finding[], replaced: readonly string[], added: Finding): Finding[] {
  return [...checks.filter((check) => !replaced.includes(check.code)), added];
}

/** The plan with what the duplicate check found: its finding, then the workspace history's warnings. */
function withDuplicateFindings(plan: PlannedWrite, duplicate: DuplicateVerdict): PlannedWrite {
  const found = [...(duplicate.finding === null ? [] : [duplicate.finding]), ...duplicate.warnings];
  return found.length === 0 ? plan : { ...plan, checks: [...plan.checks, ...found] };
}

/**
 * The one road every write walks, whatever the surface: prepare (permission, plan on fresh data,
 * duplicate check, digest, the intent remembered), optionally the person's question (the same
 * checks as a commit's, nothing used up), then commit in one fixed order (the intent held to the
 * tool, the person and the expiry, then redeemed once, a plan again that must be what the person
 * saw, consent, then one at a time per operator and currency: a last plan, the name still on the same account, the
 * reservation of the intent and the amount, one POST, its look-up). Each step is audited with
 * the one meaning of its event (AUDIT_EVENT_MEANINGS).
 */
export class WriteRoad {
  readonly #lookups: BackgroundLookups;
  readonly #resuming: Promise<void>;

  constructor(private readonly ports: RoadPorts) {
    const horizon = ports.lookupHorizonMs ?? Math.max(MIN_LOOKUP_HORIZON_MS, 4 * ports.client.timeoutMs);
    this.#lookups = new BackgroundLookups(ports.client, {
      horizonMs: horizon,
      ...(ports.lookupFirstDelayMs === undefined ? {} : { firstDelayMs: ports.lookupFirstDelayMs }),
      conclude: (write, conclusion) => this.#concludeLookup(write, conclusion),
      lookedUp: (write, result) => recordLookup(ports.store, lookedUpRecord(ports.surface, write, result)),
    });
    this.#resuming = this.#resumeUnanswered();
  }

  get operator(): string {
    return this.ports.operator;
  }

  get store() {
    return this.ports.store;
  }

  /** Resolves when every background look-up (those resumed from the store included) has concluded. */
  async lookupsSettled(): Promise<void> {
    await this.#resuming;
    await this.#lookups.settled();
  }

  /**
   * Resumes the look-ups of this operator's writes that the store shows unanswered (reserved with no
   * answer, or answered ambiguously, and not concluded): a process that stopped mid-write, or while
   * looking one up, left them so. Each is looked up at once from what the store kept before its POST.
   */
  async #resumeUnanswered(): Promise<void> {
    let unanswered: WriteTrace[];
    try {
      unanswered = await this.ports.store.unansweredWrites({ operator: this.ports.operator, since: this.#duplicatesSince() }, MAX_RESUMED_LOOKUPS);
    } catch {
      // A store that cannot be read now refuses the first call that needs it, naming why.
      return;
    }
    for (const trace of unanswered) {
      if (trace.recognition === undefined) continue;
      this.#lookups.watch({ operator: trace.operator, reference: trace.reference, recognition: trace.recognition, tool: trace.tool, person: null }, { sentAt: Date.parse(trace.reserved_at) });
    }
  }

  /** Whether the write with this reference is still being looked up. */
  lookingUp(reference: string): boolean {
    return this.#lookups.watching(reference);
  }

  /** The dry run: nothing is sent. A passing plan becomes the one intent that can be confirmed. */
  async prepare(request: WriteRequest, call: RoadCall): Promise<PrepareResult> {
    const tool = writeSpec(request.kind).identity.tool;
    const policy = this.ports.policy();
    const who = whoOf(call);
    const refusal = writePermission(policy, writeSpec(request.kind).identity, call.actor.person, this.ports.operator);
    if (refusal !== null) {
      await this.#audit({ event: "refused", tool, error: refusal, details: { reason: "permission", stage: "dry_run" } }, who);
      return { status: "refused", reason: "permission", message: refusal };
    }
    let plan: PlannedWrite;
    const history = this.#historyPrefetch(call.signal);
    try {
      plan = await planWrite(this.#context(policy, grantFor(policy, call.actor.person), call.signal, history), request);
    } catch (error) {
      const message = messageOf(error);
      await this.#audit({ event: "failed", tool, error: message, details: { stage: "dry_run", outcome: NOT_APPLIED_OUTCOME } }, who);
      return { status: "failed", message };
    }
    const fingerprint = intentFingerprint(plan);
    const duplicate = await checkDuplicate(this.#duplicateContext(fingerprint, this.#duplicatesSince(), call.signal, who, history), plan);
    plan = withDuplicateFindings(plan, duplicate);
    const digest = requestDigest(plan);
    if (hasBlocking(plan.checks)) {
      await this.#auditPlan("blocked", plan, digest, { stage: "dry_run" });
      return { status: "blocked", plan, stage: "dry_run" };
    }
    const sealed = sealIntent(plan, {
      nonce: call.nonceFor?.(plan.correlation_id) ?? randomBytes(16).toString("hex"),
      fingerprint,
      digest,
      expires_at: this.#now() + (this.ports.intentTtlMs ?? DEFAULT_INTENT_TTL_MS),
      person: subjectOf(call),
      similar: duplicate.similar,
      keepRequest: call.nonceFor !== undefined,
    });
    await this.ports.store.prepareIntent({ fingerprint: supersedeKey(fingerprint, sealed.person), nonce: sealed.nonce, operator: plan.operator, expires_at: sealed.expires_at, sealed: JSON.stringify(sealed) });
    await this.#auditPlan("dry_run", plan, digest, { expires_at: new Date(sealed.expires_at).toISOString(), fingerprint });
    return { status: "prepared", plan, digest, sealed, earlier: duplicate.earlier };
  }

  /**
   * The question to put to the person before confirming: the intent checked against who asks (the
   * tool, the person, the expiry) and planned again on fresh data, nothing used up, nothing sent.
   * A refusal here leaves the intent to its owner.
   */
  async question(request: WriteRequest, nonce: string, call: RoadCall): Promise<QuestionResult> {
    const opened = await this.#openIntent(request, nonce, call, "look");
    if ("result" in opened) return opened.result;
    const checked = await this.#checkAgain(sealRequest(request, opened.sealed), opened.sealed, opened.policy, call, "confirm");
    if ("result" in checked) return checked.result;
    return { status: "question", plan: asShownInDryRun(checked.plan, opened.sealed), sealed: opened.sealed };
  }

  /**
   * The request a still-open intent keeps (one prepared with a derived nonce), or null: what a
   * surface without the tool's arguments confirms. Nothing is used up.
   */
  async keptRequest(nonce: string): Promise<WriteRequest | null> {
    const standing = await this.ports.store.lookUpIntent(nonce);
    if (standing.outcome !== "open") return null;
    const kept = SealedIntent.parse(JSON.parse(standing.sealed)).request;
    return kept === undefined ? null : keptRequest(kept);
  }

  /** The confirmation of a prepared intent: checked against who asks, used up, checked again on fresh data, consented, then sent once. */
  async commit(request: WriteRequest, nonce: string, call: RoadCall & { consent: ConsentPort }): Promise<CommitResult> {
    const opened = await this.#openIntent(request, nonce, call, "redeem");
    if ("result" in opened) return opened.result;
    const { sealed, policy, refuse } = opened;
    const confirming = await this.#checkAgain(sealRequest(request, sealed), sealed, policy, call, "confirm");
    if ("result" in confirming) return confirming.result;
    // The fee cap the dry run proposed is now part of the request; the person is still told where it came from.
    const plan = asShownInDryRun(confirming.plan, sealed);
    const consent = await call.consent.ask(plan, sealed.expires_at - this.#now());
    if (consent.answer === "declined" || consent.answer === "cancelled") {
      await this.#auditPlan("declined", plan, sealed.digest, { answer: consent.answer, detail: consent.detail, through: consent.through ?? "form" });
      return { status: "declined", plan, detail: consent.detail };
    }
    if (this.#now() >= sealed.expires_at) return refuse("expired", "expired while waiting for the person's confirmation; nothing was sent: run a new dry run", plan);
    // Who confirmed is the record's person (the signed-in one on a team server); `through` says where: a form, the page, or the token alone.
    const through = consent.answer === "accepted" ? (consent.through ?? "form") : "token";
    await this.#auditPlan("confirmed", plan, sealed.digest, { person_confirmed: consent.answer === "accepted", reference: plan.correlation_id, through });
    // The last check, the reservation and the POST of one operator's writes in one currency run one at a
    // time in this process; the reservation is atomic in the store across processes.
    const result = await WRITES_IN_FLIGHT.run(writeSerialKey(plan.operator, plan.currency.name), () => this.#finalCheckAndSend(plan.request, sealed, policy, call));
    if (result.status !== "submitted") return result;
    // Outside the serial section: following a broadcast must not hold up the next write.
    call.progress?.("following the transaction until it is broadcast");
    return { ...result, standing: await followSubmission(this.ports.client, result.transaction, { waitMs: this.ports.broadcastWaitMs ?? DEFAULT_BROADCAST_WAIT_MS, signal: call.signal }) };
  }

  /** A refusal of a confirmation (or of its question), audited; nothing was sent. */
  #refuser(request: WriteRequest, call: RoadCall): Refuse {
    const tool = writeSpec(request.kind).identity.tool;
    return async (reason, message, plan, extra = {}) => {
      await this.#audit({ event: "refused", tool, request_digest: plan ? requestDigest(plan) : null, error: message, details: { reason, stage: "confirm", ...extra } }, whoOf(call));
      return { status: "refused", reason, message, ...(plan ? { plan } : {}), ...extra };
    };
  }

  /**
   * The sealed intent a nonce names, held to who asks before anything is used up: the caller's
   * permission, then the intent must be open (not used, not superseded, known), for this tool and
   * this person, and not expired. Someone else's attempt is refused and leaves it to its owner. To
   * "redeem" then uses it, once, ever. With it, the policy read for this call and its refusal.
   */
  async #openIntent(request: WriteRequest, nonce: string, call: RoadCall, use: "look" | "redeem"): Promise<{ sealed: SealedIntent; policy: Policy; refuse: Refuse } | { result: Refused }> {
    const tool = writeSpec(request.kind).identity.tool;
    const refuse = this.#refuser(request, call);
    const policy = this.ports.policy();
    const permission = writePermission(policy, writeSpec(request.kind).identity, call.actor.person, this.ports.operator);
    if (permission !== null) return { result: await refuse("permission", permission) };
    const standing = await this.ports.store.lookUpIntent(nonce);
    const unusable = standing.outcome === "open" ? null : await this.#unusable(standing, refuse);
    if (unusable !== null) return { result: unusable };
    const sealed = SealedIntent.parse(JSON.parse((standing as { sealed: string }).sealed));
    const refusal = await firstRefusal(INTENT_CHECKS, { sealed, tool, person: subjectOf(call), now: this.#now() });
    if (refusal !== null) return { result: await refuse(refusal.reason, refusal.message, undefined, { reference: sealed.correlation_id }) };
    if (use === "look") return { sealed, policy, refuse };
    // Used up before anything else: two confirmations at the same moment can never both pass.
    const redemption = await this.ports.store.redeemIntent(nonce);
    if (redemption.outcome === "redeemed") return { sealed, policy, refuse };
    return { result: await this.#unusable(redemption, refuse) };
  }

  /** Why an intent the store does not hold open cannot be confirmed. */
  async #unusable(standing: Exclude<IntentStanding, { outcome: "open" }>, refuse: Refuse): Promise<Refused> {
    if (standing.outcome === "reused") {
      const earlier = standing.reference === null ? null : await this.ports.store.writeByReference(standing.reference);
      const what =
        earlier?.transaction_id != null
          ? `; it created transaction ${earlier.transaction_id}`
          : earlier?.status === "uncertain"
            ? `; it went on to the write with reference ${earlier.reference}, ${unknownOutcomeText(earlier, this.#lookups.watching(earlier.reference))}`
            : standing.reference === null
              ? ""
              : `; it went on to the write with reference ${standing.reference}`;
      return refuse("reused", `already used (a confirmation submits once)${what}. Nothing was sent`, undefined, { transaction_id: earlier?.transaction_id ?? null });
    }
    if (standing.outcome === "superseded") return refuse("superseded", "a newer dry run of the same write was made since: only its confirmation counts. Nothing was sent");
    return refuse("unknown_intent", "this dry run is not known to the guard's store (expired, or made against another store); run a new dry run");
  }

  async #finalCheckAndSend(request: WriteRequest, sealed: SealedIntent, policy: Policy, call: RoadCall): Promise<CommitResult> {
    call.progress?.("final check on fresh data");
    const checked = await this.#checkAgain(request, sealed, policy, { ...call, signal: undefined }, "send_check");
    if ("result" in checked) return checked.result;
    const plan = checked.plan;
    const since = this.#duplicatesSince();
    const amount = plan.policy_amount;
    const window = new Date(this.#now() - DAILY_LIMIT_WINDOW_MS);
    const grant = grantFor(policy, call.actor.person);
    // Every counting record of an approval the team already counted says so, and so counts for the team no more.
    const creator = plan.transaction === undefined ? null : await this.#creatingWrite(plan.transaction, window);
    const committed = { ...committedDetails(plan), ...(creator === null ? {} : { [TEAM_COUNTED_BY]: creator }) };
    // What identifies the write is kept with its reservation, before the POST: any process can look it up if this one stops.
    let recognition;
    try {
      recognition = await recognitionOf(this.ports.client, plan);
    } catch (error) {
      const message = `the account's newest transaction could not be read before reserving (${messageOf(error)}); nothing was sent`;
      await this.#auditPlan("failed", plan, sealed.digest, { reference: plan.correlation_id, outcome: NOT_APPLIED_OUTCOME, stage: "send_check" }, message);
      return { status: "failed", message };
    }
    // Linked before the reservation: a failure here leaves no reserved write behind without its answer.
    await this.ports.store.linkNonce(sealed.nonce, plan.correlation_id);
    const reservation = await this.ports.store.reserve({
      record: this.#planRecord("reserved", plan, sealed.digest, { ...committed, fingerprint: sealed.fingerprint, recognition, ...(plan.request.repeat_of ? { repeat_of: plan.request.repeat_of } : {}) }),
      operator: plan.operator,
      fingerprint: sealed.fingerprint,
      reference: plan.correlation_id,
      duplicatesSince: since,
      repeatOf: checked.storeRepeatOf,
      limits:
        amount === undefined
          ? []
          : this.#limitSets(policy, grant, creator)
              .filter((set) => set.limits[plan.currency.name]?.max_per_day !== undefined)
              .map((set) => ({ scope: set.scope, currency: plan.currency.name, since: window, check: (spent: bigint) => checkDailyLimit(set, plan.currency, amount, spent) })),
    });
    if (!reservation.reserved) {
      const finding =
        reservation.reason === "daily_limit"
          ? reservation.finding
          : (await checkDuplicate(this.#duplicateContext(sealed.fingerprint, since, undefined, plan.person), plan)).finding;
      // The reservation's verdict replaces the plan's finding of the same limit (its _OK) or of the repeat.
      const checks = finding === null ? plan.checks : withFinding(plan.checks, [finding.code, `${finding.code}_OK`, "REPEAT_ACKNOWLEDGED"], finding);
      const blocked = { ...plan, checks };
      await this.#auditPlan("blocked", blocked, sealed.digest, { stage: "reserve", reference: plan.correlation_id });
      return { status: "blocked", plan: blocked, stage: "reserve" };
    }
    call.progress?.("sending");
    const outcome = await sendOnce(this.ports.client, plan, recognition);
    if (outcome.status === "submitted") {
      const problem = await this.#auditAfterSend([
        ...(outcome.looked_up ? [this.#planRecord("ambiguous", plan, sealed.digest, { ...committed, outcome: FOUND_OUTCOME })] : []),
        this.#planRecord("submitted", plan, sealed.digest, { ...committed, status: outcome.transaction.status, looked_up: outcome.looked_up }, { transaction_id: outcome.transaction.id }),
      ]);
      return { status: "submitted", plan, transaction: outcome.transaction, looked_up: outcome.looked_up, audit_problem: problem };
    }
    if (outcome.status === "not_applied") {
      const problem = await this.#auditAfterSend([this.#planRecord("failed", plan, sealed.digest, { reference: plan.correlation_id, outcome: NOT_APPLIED_OUTCOME, stage: "send" }, { error: outcome.message })]);
      return { status: "rejected", plan, message: outcome.message, audit_problem: problem };
    }
    const problem = await this.#auditAfterSend([
      this.#planRecord("ambiguous", plan, sealed.digest, { ...committed, candidates: outcome.candidates.map((candidate) => candidate.id) }, { error: outcome.cause }),
    ]);
    this.#lookups.watch({ operator: plan.operator, reference: plan.correlation_id, recognition, tool: plan.identity.tool, person: plan.person });
    return { status: "uncertain", plan, message: outcome.message, candidates: outcome.candidates, audit_problem: problem };
  }

  /**
   * Plans the confirmed request again on fresh data and holds it to what the person saw: the same
   * account (and transaction), the same digest, nothing blocking, no duplicate; right before the
   * POST also the account's name still naming that account alone.
   */
  async #checkAgain(request: WriteRequest, sealed: SealedIntent, policy: Policy, call: RoadCall, stage: Stage): Promise<{ plan: PlannedWrite; storeRepeatOf: string | null } | { result: StoppedBeforeSending }> {
    const tool = writeSpec(request.kind).identity.tool;
    let plan: PlannedWrite;
    const history = this.#historyPrefetch(call.signal);
    try {
      plan = await planWrite(this.#context(policy, grantFor(policy, call.actor.person), call.signal, history), request);
    } catch (error) {
      const message = messageOf(error);
      await this.#audit({ event: "failed", tool, request_digest: sealed.digest, error: message, details: { stage, reference: sealed.correlation_id, outcome: NOT_APPLIED_OUTCOME } }, whoOf(call));
      return { result: { status: "failed", message } };
    }
    const refuse = async (reason: RefusalReason, message: string): Promise<{ result: StoppedBeforeSending }> => {
      await this.#auditPlan("refused", plan, requestDigest(plan), { reason, stage, reference: plan.correlation_id }, message);
      return { result: { status: "refused", reason, message, plan } };
    };
    const refusal = await firstRefusal(PLAN_CHECKS, { plan, sealed, stage, client: this.ports.client, signal: call.signal });
    if (refusal !== null) return refuse(refusal.reason, refusal.message);
    const duplicate = await checkDuplicate(this.#duplicateContext(sealed.fingerprint, this.#duplicatesSince(), call.signal, plan.person, history), plan);
    plan = withDuplicateFindings(plan, duplicate);
    const unseen = similarSinceDryRun(duplicate.similar, sealed.similar ?? []);
    if (unseen !== null) plan = { ...plan, checks: [...plan.checks, unseen] };
    if (hasBlocking(plan.checks)) {
      await this.#auditPlan("blocked", plan, sealed.digest, { stage, reference: plan.correlation_id });
      return { result: { status: "blocked", plan, stage } };
    }
    return { plan, storeRepeatOf: duplicate.storeRepeatOf };
  }

  async #concludeLookup(write: WatchedWrite, conclusion: LookupConclusion): Promise<void> {
    try {
      // Another process (or this one's dry run) may have concluded it meanwhile: one conclusion is enough.
      const now = await this.ports.store.writeByReference(write.reference, this.#duplicatesSince());
      if (now !== null && (now.transaction_id !== null || now.status === "not_applied" || (!conclusion.found && now.given_up === true))) return;
      await this.ports.store.append(resolvedRecord(this.ports.surface, write, "background_lookup", conclusion));
    } catch {
      // The write stays counted as uncertain; the next look-up (a search by its reference) still finds it.
    }
  }

  /**
   * Audits what a surface decides before the road (a policy refusal, a bad token, an input it
   * cannot convert) and a call that changes something at the service outside the road (an account
   * sync, an operator's creation or registration), with the same meanings: refused, failed,
   * submitted, ambiguous.
   */
  async recordOperation(entry: {
    event: "submitted" | "failed" | "ambiguous" | "refused";
    tool: string;
    request: unknown;
    error?: string;
    details?: Record<string, unknown>;
    /** Who asked: the signed-in person, or null (a single user). */
    person: Person | null;
  }): Promise<void> {
    const { person, ...rest } = entry;
    await this.ports.store.append(callRecord(this.ports.surface, { ...rest, operator: this.ports.operator, person: person === null ? null : personOnRecord(person) }));
  }

  /** The window's read of the account's transactions, started by the plan as soon as it knows the account; none when the road reads no history. */
  #historyPrefetch(signal: AbortSignal | undefined): HistoryPrefetch | undefined {
    const windowMs = this.#historyWindowMs();
    return windowMs === null ? undefined : new HistoryPrefetch(this.ports.client, windowMs, signal);
  }

  #historyWindowMs(): number | null {
    return this.ports.readWorkspaceHistory === false ? null : (this.ports.duplicateWindowMs ?? DAILY_LIMIT_WINDOW_MS);
  }

  #duplicateContext(fingerprint: string, since: Date, signal: AbortSignal | undefined, who: PersonOnRecord | null, prefetched?: HistoryPrefetch): DuplicateContext {
    return {
      client: this.ports.client,
      store: this.ports.store,
      fingerprint,
      since,
      windowMs: this.#historyWindowMs(),
      prefetched,
      signal,
      lookingUp: (reference) => this.#lookups.watching(reference),
      recordFound: async (trace, transaction) => {
        await this.ports.store.append(resolvedRecord(this.ports.surface, { ...trace, person: who }, "duplicate_check", { found: true, transaction }));
      },
    };
  }

  #context(policy: Policy, grant: Grant, signal: AbortSignal | undefined, history?: HistoryPrefetch): PlanContext {
    const { client, operator, store } = this.ports;
    return {
      client,
      operator,
      policy,
      role: grant.role,
      person: grant.person === null ? null : personOnRecord(grant.person),
      limitSets: async (transaction) => this.#limitSets(policy, grant, transaction === undefined ? null : await this.#creatingWrite(transaction, new Date(this.#now() - DAILY_LIMIT_WINDOW_MS))),
      signal,
      spentLast24h: (currency, scope) => store.committedSince({ scope, currency, since: new Date(this.#now() - DAILY_LIMIT_WINDOW_MS) }),
      ...(history === undefined ? {} : { accountResolved: history.start }),
    };
  }

  /**
   * The limit sets a write counts against. The team's leaves out an approval of a transaction that a
   * write of this store created within the window (`creator`, its reference): the team's limit
   * counted it when it was created, and four eyes on one transfer are not two transfers. The
   * operator's and the person's still count the approval: each limits what they release.
   */
  #limitSets(policy: Policy, grant: Grant, creator: string | null): LimitSet[] {
    const sets = limitSetsFor(policy, grant, this.ports.operator);
    return creator === null ? sets : sets.filter((set) => set.scope.kind !== "team");
  }

  /**
   * The reference of the write of this store that created the transaction within the window and
   * still counts, or null. Only the guard's own marker is looked up (the last, the one it appends),
   * once and no further back than the window: notes are anyone's text. Its trace must name the
   * transaction, which a note cannot forge.
   */
  async #creatingWrite(transaction: Transaction, since: Date): Promise<string | null> {
    const reference = referencesIn(transaction.notes).at(-1);
    if (reference === undefined) return null;
    const trace = await this.ports.store.writeByReference(reference, since);
    return trace !== null && trace.transaction_id === transaction.id && trace.status !== "not_applied" ? reference : null;
  }

  #now(): number {
    return this.ports.store.time().getTime();
  }

  #duplicatesSince(): Date {
    return new Date(this.#now() - (this.ports.duplicateWindowMs ?? DAILY_LIMIT_WINDOW_MS));
  }

  #planRecord(event: AuditEventName, plan: PlannedWrite, digest: string, details: Record<string, unknown>, tail?: RecordTail): AuditInput {
    return planRecord(this.ports.surface, event, plan, digest, details, tail);
  }

  async #auditPlan(event: AuditEventName, plan: PlannedWrite, digest: string, details: Record<string, unknown>, error?: string): Promise<void> {
    await this.ports.store.append(this.#planRecord(event, plan, digest, details, error === undefined ? {} : { error }));
  }

  async #audit(entry: Omit<CallEntry, "operator" | "person">, who: PersonOnRecord | null): Promise<void> {
    await this.ports.store.append(callRecord(this.ports.surface, { ...entry, operator: this.ports.operator, person: who }));
  }

  /** Records after the POST: a failure to write one must not hide the outcome of a write that happened. */
  async #auditAfterSend(inputs: AuditInput[]): Promise<string | null> {
    try {
      for (const input of inputs) await this.ports.store.append(input);
      return null;
    } catch (error) {
      return `the audit log could not be written (${messageOf(error)}): this write is missing from it and from the daily limits`;
    }
  }
}
