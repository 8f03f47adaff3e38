import { randomBytes } from "node:crypto";
import type { AuditInput } from "../audit/audit-entry.js";
import type { AuditEventName } from "../audit/audit-events.js";
import { committedDetails, NOT_APPLIED_OUTCOME, TEAM_COUNTED_BY } from "../audit/committed-amounts.js";
import { SerialByKey, writeSerialKey } from "../audit/serial-by-key.js";
import { personOnRecord, type Person, type PersonOnRecord } from "../identity/person.js";
import { writeSpec, type WriteRequest } from "../kinds/registry.js";
import { DAILY_LIMIT_WINDOW_MS } from "../policy/daily-limit.js";
import { grantFor } from "../policy/person-grant.js";
import type { Policy } from "../policy/policy.js";
import { localText, renderText, type LocalText } from "../l10n/translate.js";
import { hasBlocking } from "../schemas/finding.js";
import { STOPPED_BEFORE_RESERVING } from "../guard-store/guard-store.js";
import { checkDuplicate, type DuplicateContext } from "./duplicate-check.js";
import { INTENT_CHECKS } from "./intent-checks.js";
import { asShownInDryRun, sealIntent, sealRequest } from "./intent-seal.js";
import { unusableIntent } from "./intent-standing.js";
import { keptRequest } from "./kept-request.js";
import { recognitionOf } from "./lost-answer-lookup.js";
import { PLAN_CHECKS } from "./plan-checks.js";
import { planWrite } from "./plan-write.js";
import type { PlannedWrite } from "./planned-write.js";
import { intentFingerprint, requestDigest, supersedeKey } from "./request-digest.js";
import { blockedByReservation, reservationRequest } from "./reservation.js";
import { firstRefusal, refusal, type Refusal } from "./road-check.js";
import { RoadLookups } from "./road-lookups.js";
import { countedLimitSets, creatingWrite, limitWindowStart, roadPlanContext } from "./road-plan-context.js";
import { callRecord, planRecord, resolvedRecord, sentRecords, type CallEntry } from "./road-records.js";
import {
  SealedIntent,
  type CommitResult,
  type ConsentPort,
  type DuplicateVerdict,
  type PrepareResult,
  type QuestionResult,
  type RoadCall,
  type RoadPorts,
  type Stage,
  type StoppedBeforeSending,
} from "./road-types.js";
import { sendOnce } from "./send-once.js";
import { auditAfterWork } from "./audit-after-work.js";
import { racedWrite } from "./race-after-send.js";
import { errorLocalText, errorMessage } from "../untrusted/error-message.js";
import { followSubmission } from "./submission-standing.js";
import { similarSinceDryRun } from "./workspace-duplicates.js";
import { HistoryPrefetch } from "./workspace-history.js";
import { writePermission } from "./write-permission.js";

type Refused = Extract<CommitResult, { status: "refused" }>;
type Refuse = (refusal: Refusal, plan?: PlannedWrite) => Promise<Refused>;
/** A confirmation's plan that passed every check, with the acknowledgement its reservation checks. */
type Checked = { plan: PlannedWrite; storeRepeatOf: string | null };

/** A call audited outside the road's dry run and confirmation (recordOperation). */
interface OperationEntry {
  event: "submitted" | "failed" | "ambiguous" | "refused";
  tool: string;
  request: unknown;
  error?: string;
  details?: Record<string, unknown>;
  /** Who asked: the signed-in person, or null (a single user). */
  person: Person | null;
}

const DEFAULT_INTENT_TTL_MS = 5 * 60 * 1000;
const DEFAULT_BROADCAST_WAIT_MS = 5000;

/**
 * One per process, shared by every road in it (every MCP session, every VS Code connection): the
 * last check, the reservation and the POST of one operator's writes in one currency run one at a
 * time, so the next write plans against a settled balance. Across processes, the store's
 * reservation is what is atomic.
 */
const WRITES_IN_FLIGHT = new SerialByKey();

/** The subject a call's person is bound by, or null (a single user). */
function subjectOf(call: RoadCall): string | null {
  return call.actor.person?.subject ?? null;
}

/** The person a call's records name. */
function whoOf(call: RoadCall): PersonOnRecord | null {
  return call.actor.person === null ? null : personOnRecord(call.actor.person);
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
 * the one meaning of its event (AUDIT_EVENT_MEANINGS); the records are built in road-records.ts.
 */
export class WriteRoad {
  readonly #lookups: RoadLookups;

  constructor(private readonly ports: RoadPorts) {
    this.#lookups = new RoadLookups(ports, () => this.#duplicatesSince());
  }

  get operator(): string {
    return this.ports.operator;
  }

  get store() {
    return this.ports.store;
  }

  /** Resolves when every background look-up (those resumed from the store included) has concluded. */
  async lookupsSettled(): Promise<void> {
    await this.#lookups.settled();
  }

  /** Stops sweeping for writes other processes left (its own look-ups go on): for a road another one replaces on the same store. */
  stopSweeping(): void {
    this.#lookups.stopSweeping();
  }

  /** Stops its background look-ups and sweeps, for a graceful stop before the store closes: the next process to open the store resumes them. */
  async close(): Promise<void> {
    await this.#lookups.close();
  }

  /** Whether the write with this reference is still being looked up. */
  lookingUp(reference: string): boolean {
    return this.#lookups.watching(reference);
  }

  /** The dry run: nothing is sent. A passing plan becomes the one intent that can be confirmed. */
  async prepare(request: WriteRequest, call: RoadCall): Promise<PrepareResult> {
    const identity = writeSpec(request.kind).identity;
    const policy = this.ports.policy();
    const who = whoOf(call);
    const permission = writePermission(policy, identity, call.actor.person, this.ports.operator);
    if (permission !== null) {
      const { message, text } = refusal("permission", permission);
      await this.#audit({ event: "refused", tool: identity.tool, error: message, details: { reason: "permission", stage: "dry_run" } }, who);
      return { status: "refused", reason: "permission", message, text };
    }
    const history = this.#historyPrefetch(call.signal, request);
    const planned = await this.#plan(request, policy, call, history, { stage: "dry_run", outcome: NOT_APPLIED_OUTCOME });
    if ("message" in planned) return { status: "failed", message: planned.message, text: planned.text };
    const fingerprint = intentFingerprint(planned.plan);
    const duplicate = await checkDuplicate(this.#duplicateContext(fingerprint, this.#duplicatesSince(), call.signal, who, history), planned.plan);
    const plan = withDuplicateFindings(planned.plan, duplicate);
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
      service: this.ports.client.baseUrl,
      similar: duplicate.similar,
      keepRequest: call.nonceFor !== undefined,
    });
    // A derived nonce is person mode's: the dry run waits for its person, who finds it in their list (the extension's, list_pending_approvals).
    const waiting = call.nonceFor === undefined ? {} : { waiting_for: { person: sealed.person } };
    await this.ports.store.prepareIntent({
      fingerprint: supersedeKey(fingerprint, sealed.person),
      nonce: sealed.nonce,
      operator: plan.operator,
      expires_at: sealed.expires_at,
      sealed: JSON.stringify(sealed),
      ...waiting,
    });
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
    const reserving = { begun: false };
    try {
      return await this.#commitRedeemed(request, opened, call, reserving);
    } finally {
      // Until now the used intent named no write, as one still being confirmed does: one that stopped before its reservation
      // (declined, refused, blocked, failed) sent nothing, and whoever reads where it stands is told so (person-standing).
      if (!reserving.begun) await this.ports.store.linkNonce(nonce, STOPPED_BEFORE_RESERVING).catch(() => undefined);
    }
  }

  async #commitRedeemed(
    request: WriteRequest,
    opened: { sealed: SealedIntent; policy: Policy; refuse: Refuse },
    call: RoadCall & { consent: ConsentPort },
    reserving: { begun: boolean },
  ): Promise<CommitResult> {
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
    if (this.#now() >= sealed.expires_at)
      return refuse(refusal("expired", localText("expired while waiting for the person's confirmation; nothing was sent: run a new dry run")), plan);
    // Who confirmed is the record's person (the signed-in one on a team server); `through` says where: a form, the page, or the token alone.
    const through = consent.answer === "accepted" ? (consent.through ?? "form") : "token";
    await this.#auditPlan("confirmed", plan, sealed.digest, { person_confirmed: consent.answer === "accepted", reference: plan.correlation_id, through });
    // The last check, the reservation and the POST of one operator's writes in one currency run one at a
    // time in this process; the reservation is atomic in the store across processes.
    const result = await WRITES_IN_FLIGHT.run(writeSerialKey(plan.operator, plan.currency.name), () =>
      this.#finalCheckAndSend(plan.request, sealed, policy, call, reserving),
    );
    if (result.status !== "submitted") return result;
    // Outside the serial section: following a broadcast must not hold up the next write.
    call.progress?.("following the transaction until it is broadcast");
    return {
      ...result,
      standing: await followSubmission(this.ports.client, result.transaction, {
        waitMs: this.ports.broadcastWaitMs ?? DEFAULT_BROADCAST_WAIT_MS,
        signal: call.signal,
      }),
    };
  }

  /**
   * Audits what a surface decides before the road (a policy refusal, a bad token, an input it
   * cannot convert) and a call that changes something at the service outside the road (an account
   * sync, an operator's creation or registration), with the same meanings: refused, failed,
   * submitted, ambiguous.
   */
  async recordOperation(entry: OperationEntry): Promise<void> {
    await this.ports.store.append(this.#operationRecord(entry));
  }

  /** The same, of what the service answered it did: an audit failure cannot undo it, so it is returned to be said beside it, not thrown. */
  async recordDoneOperation(entry: OperationEntry): Promise<LocalText | null> {
    return auditAfterWork(this.ports.store, [this.#operationRecord(entry)], "call");
  }

  #operationRecord({ person, ...rest }: OperationEntry): AuditInput {
    return callRecord(this.ports.surface, { ...rest, operator: this.ports.operator, person: person === null ? null : personOnRecord(person) });
  }

  /** A refusal of a confirmation (or of its question), audited; nothing was sent. */
  #refuser(request: WriteRequest, call: RoadCall): Refuse {
    const tool = writeSpec(request.kind).identity.tool;
    return async ({ reason, message, text, facts = {} }, plan) => {
      await this.#audit(
        { event: "refused", tool, request_digest: plan ? requestDigest(plan) : null, error: message, details: { reason, stage: "confirm", ...facts } },
        whoOf(call),
      );
      return { status: "refused", reason, message, text, ...(plan ? { plan } : {}), ...facts };
    };
  }

  /**
   * The sealed intent a nonce names, held to who asks before anything is used up: the caller's
   * permission, then the intent must be open (not used, not superseded, known) and pass
   * INTENT_CHECKS (this tool, this person, not expired). Someone else's attempt is refused and
   * leaves it to its owner. To "redeem" then uses it, once, ever. With it, the policy read for this
   * call and its refusal.
   */
  async #openIntent(
    request: WriteRequest,
    nonce: string,
    call: RoadCall,
    use: "look" | "redeem",
  ): Promise<{ sealed: SealedIntent; policy: Policy; refuse: Refuse } | { result: Refused }> {
    const identity = writeSpec(request.kind).identity;
    const refuse = this.#refuser(request, call);
    const policy = this.ports.policy();
    const permission = writePermission(policy, identity, call.actor.person, this.ports.operator);
    if (permission !== null) return { result: await refuse(refusal("permission", permission)) };
    const standing = await this.ports.store.lookUpIntent(nonce);
    if (standing.outcome !== "open") return { result: await refuse(await this.#unusable(standing)) };
    const sealed = SealedIntent.parse(JSON.parse(standing.sealed));
    const refused = await firstRefusal(INTENT_CHECKS, {
      sealed,
      tool: identity.tool,
      person: subjectOf(call),
      service: this.ports.client.baseUrl,
      now: this.#now(),
    });
    if (refused !== null) return { result: await refuse({ ...refused, facts: { reference: sealed.correlation_id } }) };
    if (use === "look") return { sealed, policy, refuse };
    // Used up before anything else: two confirmations at the same moment can never both pass.
    const redemption = await this.ports.store.redeemIntent(nonce);
    if (redemption.outcome === "redeemed") return { sealed, policy, refuse };
    return { result: await refuse(await this.#unusable(redemption)) };
  }

  #unusable(standing: Parameters<typeof unusableIntent>[0]): Promise<Refusal> {
    return unusableIntent(standing, this.ports.store, (reference) => this.#lookups.watching(reference));
  }

  /**
   * Plans the confirmed request again on fresh data and holds it to what the person saw: PLAN_CHECKS
   * (the same account and transaction, right before the POST the account's name still naming that
   * account alone, the same digest), then nothing blocking, no duplicate.
   */
  async #checkAgain(
    request: WriteRequest,
    sealed: SealedIntent,
    policy: Policy,
    call: RoadCall,
    stage: Stage,
  ): Promise<Checked | { result: StoppedBeforeSending }> {
    const history = this.#historyPrefetch(call.signal, request);
    const planned = await this.#plan(request, policy, call, history, { stage, reference: sealed.correlation_id, outcome: NOT_APPLIED_OUTCOME }, sealed.digest);
    if ("message" in planned) return { result: { status: "failed", message: planned.message, text: planned.text } };
    let plan = planned.plan;
    const refused = await firstRefusal(PLAN_CHECKS, { plan, sealed, stage, client: this.ports.client, signal: call.signal });
    if (refused !== null) {
      await this.#auditPlan("refused", plan, requestDigest(plan), { reason: refused.reason, stage, reference: plan.correlation_id }, refused.message);
      return { result: { status: "refused", reason: refused.reason, message: refused.message, text: refused.text, plan } };
    }
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

  /** The last check on fresh data, the reservation, the POST once and its records; run one at a time per operator and currency. */
  async #finalCheckAndSend(request: WriteRequest, sealed: SealedIntent, policy: Policy, call: RoadCall, reserving: { begun: boolean }): Promise<CommitResult> {
    call.progress?.("final check on fresh data");
    const checkedAt = this.ports.client.serviceNow();
    const checked = await this.#checkAgain(request, sealed, policy, { ...call, signal: undefined }, "send_check");
    if ("result" in checked) return checked.result;
    const plan = checked.plan;
    const since = this.#duplicatesSince();
    const window = limitWindowStart(this.ports.store);
    // Every counting record of an approval the team already counted says so, and so counts for the team no more.
    const creator = plan.transaction === undefined ? null : await creatingWrite(this.ports.store, plan.transaction, window);
    const committed = { ...committedDetails(plan), ...(creator === null ? {} : { [TEAM_COUNTED_BY]: creator }) };
    // What identifies the write is kept with its reservation, before the POST: any process can look it up if this one stops.
    let recognition;
    try {
      recognition = await recognitionOf(this.ports.client, plan);
    } catch (error) {
      const text = localText("the account's newest transaction could not be read before reserving ({0}); nothing was sent", errorLocalText(error));
      const message = renderText(text);
      await this.#auditPlan("failed", plan, sealed.digest, { reference: plan.correlation_id, outcome: NOT_APPLIED_OUTCOME, stage: "send_check" }, message);
      return { status: "failed", message, text };
    }
    // Linked before the reservation: a failure here leaves no reserved write behind without its answer.
    await this.ports.store.linkNonce(sealed.nonce, plan.correlation_id);
    reserving.begun = true;
    const reservation = await this.ports.store.reserve(
      reservationRequest(plan, {
        record: planRecord(this.ports.surface, "reserved", plan, sealed.digest, {
          ...committed,
          fingerprint: sealed.fingerprint,
          recognition,
          ...(plan.request.repeat_of ? { repeat_of: plan.request.repeat_of } : {}),
          // Kept by person mode's (and a view's) dry run: a later call with the reference is held to it once the intent is used or forgotten.
          ...(sealed.request === undefined ? {} : { kept_request: sealed.request }),
        }),
        fingerprint: sealed.fingerprint,
        duplicatesSince: since,
        repeatOf: checked.storeRepeatOf,
        limitSets: countedLimitSets(policy, grantFor(policy, call.actor.person), this.ports.operator, creator),
        limitsSince: window,
      }),
    );
    if (!reservation.reserved) {
      const finding =
        reservation.reason === "daily_limit"
          ? reservation.finding
          : (await checkDuplicate(this.#duplicateContext(sealed.fingerprint, since, undefined, plan.person), plan)).finding;
      const blocked = blockedByReservation(plan, finding);
      await this.ports.store.linkNonce(sealed.nonce, STOPPED_BEFORE_RESERVING);
      await this.#auditPlan("blocked", blocked, sealed.digest, { stage: "reserve", reference: plan.correlation_id });
      return { status: "blocked", plan: blocked, stage: "reserve" };
    }
    call.progress?.("sending");
    const outcome = await sendOnce(this.ports.client, plan, recognition);
    // Another store's identical write that landed in the same moment: named, as the later of the two (race-after-send.ts).
    const raced = outcome.status === "submitted" ? await racedWrite(this.ports.client, plan, outcome.transaction, checkedAt, this.#historyWindowMs()) : null;
    const problem = await auditAfterWork(this.ports.store, sentRecords(this.ports.surface, plan, sealed.digest, committed, outcome, raced), "write");
    if (outcome.status === "submitted")
      return {
        status: "submitted",
        plan,
        transaction: outcome.transaction,
        looked_up: outcome.looked_up,
        audit_problem: problem,
        ...(raced === null ? {} : { raced }),
      };
    if (outcome.status === "not_applied") return { status: "rejected", plan, message: outcome.message, text: outcome.text, audit_problem: problem };
    this.#lookups.watch({ operator: plan.operator, reference: plan.correlation_id, recognition, tool: plan.identity.tool, person: plan.person });
    return { status: "uncertain", plan, message: outcome.message, text: outcome.text, candidates: outcome.candidates, audit_problem: problem };
  }

  /** The request planned on fresh data, or why it could not be (audited as failed, with these details). */
  async #plan(
    request: WriteRequest,
    policy: Policy,
    call: RoadCall,
    history: HistoryPrefetch | undefined,
    failure: Record<string, unknown>,
    digest?: string,
  ): Promise<{ plan: PlannedWrite } | { message: string; text: LocalText }> {
    try {
      return { plan: await planWrite(roadPlanContext(this.ports, policy, grantFor(policy, call.actor.person), call.signal, history), request) };
    } catch (error) {
      const message = errorMessage(error);
      const tool = writeSpec(request.kind).identity.tool;
      await this.#audit({ event: "failed", tool, ...(digest === undefined ? {} : { request_digest: digest }), error: message, details: failure }, whoOf(call));
      return { message, text: errorLocalText(error) };
    }
  }

  /** The window's read of the account's transactions, started by the plan as soon as it knows the account; none when the road reads no history. */
  #historyPrefetch(signal: AbortSignal | undefined, request: WriteRequest): HistoryPrefetch | undefined {
    const windowMs = this.#historyWindowMs();
    if (windowMs === null) return undefined;
    const prefetch = new HistoryPrefetch({ client: this.ports.client, saved: this.ports.store.windows }, windowMs, signal);
    if ("account" in request) prefetch.startFromReference(request.account);
    return prefetch;
  }

  #historyWindowMs(): number | null {
    return this.ports.readWorkspaceHistory === false ? null : (this.ports.duplicateWindowMs ?? DAILY_LIMIT_WINDOW_MS);
  }

  #duplicateContext(
    fingerprint: string,
    since: Date,
    signal: AbortSignal | undefined,
    who: PersonOnRecord | null,
    prefetched?: HistoryPrefetch,
  ): DuplicateContext {
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

  #now(): number {
    return this.ports.store.time().getTime();
  }

  #duplicatesSince(): Date {
    return new Date(this.#now() - (this.ports.duplicateWindowMs ?? DAILY_LIMIT_WINDOW_MS));
  }

  async #auditPlan(event: AuditEventName, plan: PlannedWrite, digest: string, details: Record<string, unknown>, error?: string): Promise<void> {
    await this.ports.store.append(planRecord(this.ports.surface, event, plan, digest, details, error === undefined ? {} : { error }));
  }

  async #audit(entry: Omit<CallEntry, "operator" | "person">, who: PersonOnRecord | null): Promise<void> {
    await this.ports.store.append(callRecord(this.ports.surface, { ...entry, operator: this.ports.operator, person: who }));
  }
}
