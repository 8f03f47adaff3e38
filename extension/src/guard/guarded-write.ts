import * as vscode from "vscode";
import {
  certainlyNotApplied,
  committedDetails,
  hasBlocking,
  NOT_APPLIED_OUTCOME,
  planWrite,
  requestDigest,
  sanitizeUntrustedText,
  SerialByKey,
  submitWrite,
  toolPermission,
  writeSerialKey,
  type PlanContext,
  type PlannedWrite,
  type Policy,
  type Reservation,
  type WriteKind,
  type WriteOutcome,
  type WriteRequest,
} from "@custody/shared";
import type { Connection } from "../connection/connection.js";
import type { ConnectedState } from "../connection/connection-state.js";
import type { Prompter } from "../input/prompter.js";
import { errorText } from "../output/error-text.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { OutputLog } from "../output/output-log.js";
import { blockingText, confirmationText } from "./confirmation-text.js";
import type { ExtensionAudit } from "./extension-audit.js";
import { loadPolicy } from "./policy-source.js";
import { writeTool } from "./write-tools.js";

export interface WriteGuardDeps {
  connection: Connection;
  prompter: Prompter;
  output: OutputLog;
  audit: ExtensionAudit;
  /** The custody.policyFile setting, read at each write. */
  policySetting(): string;
  /** Called after anything was sent, to refresh views and the status bar. */
  afterWrite(): void;
}

export type GuardedResult =
  | { status: "refused" | "blocked" | "declined" | "changed"; message: string }
  | { status: "failed"; message: string; sent: boolean }
  | { status: "sent"; outcome: WriteOutcome; plan: PlannedWrite };

const SUBMIT = "Submit";

/** The planned request with the max_fees proposed from the estimate fixed, so the final check rebuilds the very request confirmed. */
function pinnedRequest(plan: PlannedWrite): WriteRequest {
  const request = plan.request;
  if (plan.proposed_max_fees !== null && (request.kind === "send" || request.kind === "ethereum_stake") && request.max_fees === undefined) {
    return { ...request, max_fees: plan.proposed_max_fees };
  }
  return request;
}

/**
 * The one road every write of the extension walks: permission, plan on fresh data (shared's
 * pre-flight rules, governance forecast, local policy), blocking checks shown and stop, a modal
 * confirmation of the exact request, a second plan on fresh data that must match it exactly,
 * then one POST (an ambiguous outcome is looked up, never re-sent), each step audited.
 */
export class WriteGuard {
  /** The final check, reservation and POST of one operator's writes in one currency run one at a time. */
  readonly #inFlight = new SerialByKey();

  constructor(private readonly deps: WriteGuardDeps) {}

  /** Whether the local policy lets this kind of write run at all; commands ask before collecting input. */
  permits(kind: WriteKind): { allowed: true } | { allowed: false; reason: string } {
    try {
      return toolPermission(loadPolicy(this.deps.policySetting()), writeTool(kind));
    } catch (error) {
      return { allowed: false, reason: errorText(error) };
    }
  }

  #context(state: ConnectedState, policy: Policy = loadPolicy(this.deps.policySetting())): PlanContext {
    const operator = state.target.operator;
    return { client: state.client, operator, policy, spentLast24h: (currency) => this.deps.audit.spentLast24h(operator, currency) };
  }

  #progress<T>(title: string, work: () => Promise<T>): Promise<T> {
    return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: false }, work));
  }

  async run(request: WriteRequest): Promise<GuardedResult> {
    const { output, audit, prompter } = this.deps;
    const tool = writeTool(request.kind).name;
    const state = this.deps.connection.require();
    const operator = state.target.operator;
    const base = { operator, tool };

    const permission = this.permits(request.kind);
    if (!permission.allowed) {
      audit.record({ ...base, event: "refused", request_digest: null, error: permission.reason });
      return this.#stop("refused", `Custody: ${tool} refused: ${permission.reason}`);
    }

    let plan: PlannedWrite;
    try {
      plan = await this.#progress(`Custody: checking ${tool} on fresh data...`, () => planWrite(this.#context(state), request));
    } catch (error) {
      audit.record({ ...base, event: "failed", request_digest: null, error: errorText(error) });
      return this.#failed(`Custody: ${tool} could not be prepared (nothing was sent)`, error, false);
    }
    const digest = requestDigest(plan);
    const checks = plan.checks.map((item) => ({ code: item.code, severity: item.severity }));
    output.block(sanitizeUntrustedText(`${tool}: ${plan.summary}`), plan.checks.map((item) => `[${item.severity}] ${item.code}: ${sanitizeUntrustedText(item.message)}`));
    audit.record({ ...base, event: "dry_run", request_digest: digest, request: plan.request, checks });

    if (hasBlocking(plan.checks)) {
      audit.record({ ...base, event: "blocked", request_digest: digest, checks });
      return this.#stop("blocked", `Custody: ${tool} blocked, nothing was sent.\n${blockingText(plan.checks)}`, true);
    }

    const text = confirmationText(plan, state.client.baseUrl);
    const confirmed = await prompter.confirm({ message: text.message, detail: text.detail, action: SUBMIT });
    if (!confirmed) {
      audit.record({ ...base, event: "declined", request_digest: digest });
      output.info(`${tool}: declined, nothing was sent`);
      return { status: "declined", message: "declined" };
    }
    audit.record({ ...base, event: "confirmed", request_digest: digest });
    return this.#inFlight.run(writeSerialKey(operator, plan.currency.name), () => this.#checkAndSend(state, plan, digest));
  }

  /**
   * The confirmation covers this exact request: check again on fresh data, reserve its amount
   * against the daily maximum (atomically, under the audit log's lock shared with the MCP server),
   * and send only the same request.
   */
  async #checkAndSend(state: ConnectedState, plan: PlannedWrite, digest: string): Promise<GuardedResult> {
    const { audit } = this.deps;
    const tool = writeTool(plan.kind).name;
    const base = { operator: plan.operator, tool };
    let fresh: PlannedWrite;
    let policy: Policy;
    try {
      policy = loadPolicy(this.deps.policySetting());
      fresh = await planWrite(this.#context(state, policy), pinnedRequest(plan));
    } catch (error) {
      audit.record({ ...base, event: "failed", request_digest: digest, error: errorText(error) });
      return this.#failed(`Custody: ${tool} could not be checked again before sending (nothing was sent)`, error, false);
    }
    if (hasBlocking(fresh.checks)) {
      audit.record({ ...base, event: "blocked", request_digest: requestDigest(fresh), checks: fresh.checks.map((item) => ({ code: item.code, severity: item.severity })) });
      return this.#stop("blocked", `Custody: ${tool} blocked on the final check, nothing was sent.\n${blockingText(fresh.checks)}`, true);
    }
    if (requestDigest(fresh) !== digest) {
      audit.record({ ...base, event: "refused", request_digest: requestDigest(fresh), error: "the request changed after confirmation" });
      return this.#stop("changed", `Custody: the data behind ${tool} changed after you confirmed, so the request would differ from the one you saw. Nothing was sent; run the command again.`);
    }

    let reservation: Reservation;
    try {
      reservation = audit.reserve(fresh, policy, { tool, request_digest: digest });
    } catch (error) {
      return this.#failed(`Custody: ${tool} could not reserve its amount in the audit log (nothing was sent)`, error, false);
    }
    if (!reservation.reserved) {
      audit.record({ ...base, event: "blocked", request_digest: digest, checks: [{ code: reservation.finding.code, severity: reservation.finding.severity }], details: { stage: "reserve" } });
      return this.#stop("blocked", `Custody: ${tool} blocked by the daily limit just before sending, nothing was sent.\n${blockingText([reservation.finding])}`, true);
    }

    let outcome: WriteOutcome;
    try {
      outcome = await this.#progress(`Custody: submitting ${tool}...`, () => submitWrite(state.client, fresh));
    } catch (error) {
      const notApplied = certainlyNotApplied(error);
      // Only a write that certainly did not happen releases its reservation.
      this.#recordAfterSending(() =>
        audit.record({ ...base, event: "failed", request_digest: digest, error: errorText(error), details: { reference: fresh.correlation_id, ...(notApplied ? { outcome: NOT_APPLIED_OUTCOME } : {}) } }),
      );
      this.deps.afterWrite();
      return this.#failed(`Custody: ${tool} failed`, error, true);
    }
    this.deps.afterWrite();
    return this.#report(fresh, digest, outcome);
  }

  #report(plan: PlannedWrite, digest: string, outcome: WriteOutcome): GuardedResult {
    const tool = writeTool(plan.kind).name;
    const base = { operator: plan.operator, tool, request_digest: digest };
    if (outcome.status === "submitted") {
      const tx = outcome.transaction;
      this.#recordAfterSending(() =>
        this.deps.audit.record({
          ...base,
          event: "submitted",
          transaction_id: tx.id,
          details: { ...committedDetails(plan), status: tx.status, looked_up: outcome.looked_up },
        }),
      );
      const message = `Custody: transaction #${tx.id} (${labelText(tx.type, 40)}) created, status ${labelText(tx.status, 40)}${outcome.looked_up ? " (found by look-up after a lost answer)" : ""}.`;
      this.deps.output.info(`${tool}: ${message}`);
      void vscode.window.showInformationMessage(message);
    } else {
      this.#recordAfterSending(() =>
        this.deps.audit.record({ ...base, event: "ambiguous", error: outcome.message, details: { ...committedDetails(plan), cause: outcome.cause, ...(outcome.status === "uncertain" ? { candidates: outcome.candidates } : {}) } }),
      );
      this.deps.output.warn(`${tool}: ${outcome.message} (cause: ${outcome.cause})`);
      void vscode.window.showWarningMessage(`Custody: ${outcome.message}`, { modal: false });
    }
    return { status: "sent", outcome, plan };
  }

  /** Once the request has gone, an audit failure must not hide the outcome: it is reported beside it. */
  #recordAfterSending(record: () => void): void {
    try {
      record();
    } catch (error) {
      this.deps.output.error("Writing the audit record after sending", error);
      void vscode.window.showErrorMessage(`Custody: the request was sent, but its audit record could not be written: ${errorText(error)}`);
    }
  }

  #stop(status: "refused" | "blocked" | "changed", message: string, modal = false): GuardedResult {
    this.deps.output.warn(message);
    if (modal) {
      const [head = message, ...rest] = message.split("\n");
      void vscode.window.showErrorMessage(head, { modal: true, detail: rest.join("\n") });
    } else {
      void vscode.window.showErrorMessage(message);
    }
    return { status, message };
  }

  #failed(context: string, error: unknown, sent: boolean): GuardedResult {
    this.deps.output.error(context, error);
    const message = `${context}: ${errorText(error)}`;
    void vscode.window.showErrorMessage(message);
    return { status: "failed", message, sent };
  }
}
