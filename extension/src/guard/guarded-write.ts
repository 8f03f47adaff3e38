import * as vscode from "vscode";
import {
  errorLocalText,
  errorMessage,
  findingMessage,
  renderText,
  sanitizeUntrustedText,
  TextError,
  toolPermission,
  writeToolQuery,
  writeIdentity,
  WriteRoad,
  whatMovesSentence,
  type CommitResult,
  type CustodyClient,
  type Finding,
  type LocalText,
  type PlannedWrite,
  type Stage,
  type PrepareResult,
  type ToolVerdict,
  type WaitingWrite,
  type WriteKind,
  type WriteRequest,
} from "@custody/shared";
import type { Connection } from "../connection/connection.js";
import type { Prompter } from "../input/prompter.js";
import { labelText } from "../views/markdown-tooltip.js";
import type { OutputLog } from "../output/output-log.js";
import { notify } from "../output/notify.js";
import { blockedText, confirmationText, withWhatMoves } from "./confirmation-text.js";
import { AUDIT_SURFACE, type ExtensionAudit } from "./extension-audit.js";
import { loadPolicy } from "./policy-source.js";
import { restrictedModeRefusal } from "./workspace-trust.js";
import { decideWaiting } from "./waiting-decision.js";
import { translate } from "../output/translate.js";

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
  | { status: "refused" | "blocked" | "declined"; message: string }
  | { status: "failed"; message: string; sent: boolean }
  | { status: "sent"; result: Extract<CommitResult, { status: "submitted" | "uncertain" }> };

/** Where a write was blocked, as the person reads it; translated when shown, as every text here. */
function blockedAt(stage: Stage): string {
  if (stage === "confirm") return vscode.l10n.t(" on the check before your confirmation");
  if (stage === "send_check") return vscode.l10n.t(" on the final check");
  if (stage === "reserve") return vscode.l10n.t(" just before sending (daily limit or a duplicate)");
  return "";
}

/**
 * The button that sends an identical write again; when the earlier one's outcome is unknown,
 * choosing it is the person's acknowledgement that it may pay twice.
 */
function sendAgainAction(unknown: boolean): string {
  return unknown ? vscode.l10n.t("Send Again, It May Pay Twice") : vscode.l10n.t("Send Again");
}

/** The DUPLICATE_OF_RECENT finding of a blocked plan, when it is the only blocking one: the person may then repeat on purpose. */
function soleDuplicate(checks: readonly Finding[]): Finding | undefined {
  const blocking = checks.filter((check) => check.severity === "block");
  return blocking.length === 1 && blocking[0]?.code === "DUPLICATE_OF_RECENT" ? blocking[0] : undefined;
}

/**
 * The VS Code surface of the write road: the road prepares (plan on fresh data, checks, the intent)
 * and commits (checks again, the person's consent through a modal of the exact request, the final
 * check, the reservation, one POST and its look-up), auditing every step; this adapter owns the
 * progress notifications, the modal and the messages.
 */
export class WriteGuard {
  #road: { client: CustodyClient; road: WriteRoad } | undefined;

  constructor(private readonly deps: WriteGuardDeps) {}

  /** Whether the local policy lets this kind of write run at all; commands ask before collecting input. */
  permits(kind: WriteKind): ToolVerdict {
    const identity = writeIdentity(kind);
    try {
      return toolPermission(loadPolicy(this.deps.policySetting()), writeToolQuery(identity));
    } catch (error) {
      return { allowed: false, reason: errorMessage(error, 1000), text: errorLocalText(error) };
    }
  }

  /**
   * Builds the road of a new connection at once: opening the store resumes the look-ups of the
   * operator's writes a stopped window (or another process) left unanswered, before any write.
   */
  connected(): void {
    const state = this.deps.connection.require();
    this.#roadFor(state.client, state.target.operator);
  }

  /** The road of the current connection, one per client. */
  #roadFor(client: CustodyClient, operator: string): WriteRoad {
    if (this.#road?.client !== client) {
      const policySetting = this.deps.policySetting;
      // The old road stops sweeping (the new one sweeps the store); its own look-ups go on, so a write it is sending is not left unwatched.
      this.#road?.road.stopSweeping();
      this.#road = {
        client,
        road: new WriteRoad({ client, operator, policy: () => loadPolicy(policySetting()), store: this.deps.audit.store(), surface: AUDIT_SURFACE }),
      };
    }
    return this.#road.road;
  }

  #progress<T>(title: string, work: () => Promise<T>): Promise<T> {
    return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: false }, work));
  }

  async run(request: WriteRequest): Promise<GuardedResult> {
    const tool = writeIdentity(request.kind).tool;
    const restricted = restrictedModeRefusal();
    if (restricted !== undefined) return this.#stop("refused", vscode.l10n.t("Custody: {0} refused: {1}", tool, restricted));
    const state = this.deps.connection.require();
    const road = this.#roadFor(state.client, state.target.operator);
    const actor = { person: null };
    let prepared: PrepareResult;
    try {
      prepared = await this.#progress(vscode.l10n.t("Custody: checking {0} on fresh data...", tool), () => road.prepare(request, { actor }));
    } catch (error) {
      return this.#failed(vscode.l10n.t("Custody: {0} could not be prepared (nothing was sent)", tool), error, false);
    }
    if (prepared.status === "blocked") {
      this.#showPlan(tool, prepared.plan);
      const duplicate = soleDuplicate(prepared.plan.checks);
      const repeatOf = duplicate?.facts.repeat_of;
      if (duplicate !== undefined && repeatOf !== undefined && request.repeat_of === undefined) {
        const unknown = duplicate.facts.may_pay_twice === "true";
        const question = unknown
          ? vscode.l10n.t("Look at the account's transactions first. Send it again anyway, knowing it may pay twice?")
          : vscode.l10n.t("Send it again anyway, on purpose?");
        const again = await this.deps.prompter.confirm({
          message: unknown
            ? vscode.l10n.t("Custody: {0}: an identical request may already be applied (its outcome is unknown). Sending again MAY PAY TWICE.", tool)
            : vscode.l10n.t("Custody: {0}: this would send the same request twice.", tool),
          detail: withWhatMoves(prepared.plan, `${sanitizeUntrustedText(findingMessage(duplicate, translate))}\n\n${question}`),
          action: sendAgainAction(unknown),
        });
        if (again) return this.run({ ...request, repeat_of: repeatOf });
        this.deps.output.info(vscode.l10n.t("{0}: not sent again", tool));
        return { status: "declined", message: vscode.l10n.t("not sent again") };
      }
      return this.#stop("blocked", vscode.l10n.t("Custody: {0} blocked, nothing was sent.\n{1}", tool, blockedText(prepared.plan)), true);
    }
    if (prepared.status === "refused") return this.#stop("refused", vscode.l10n.t("Custody: {0} refused: {1}", tool, renderText(prepared.text, translate)));
    if (prepared.status === "failed")
      return this.#failed(vscode.l10n.t("Custody: {0} could not be prepared (nothing was sent)", tool), new TextError(prepared.text), false);
    this.#showPlan(tool, prepared.plan);
    const consent = {
      ask: async (plan: PlannedWrite) => {
        const text = confirmationText(plan, state.client.baseUrl);
        const confirmed = await this.deps.prompter.confirm({ message: text.message, detail: text.detail, action: vscode.l10n.t("Submit") });
        return confirmed ? { answer: "accepted" as const } : { answer: "declined" as const, detail: "the person declined" };
      },
    };
    let result: CommitResult;
    try {
      result = await road.commit(request, prepared.sealed.nonce, { actor, consent });
    } catch (error) {
      return this.#failed(vscode.l10n.t("Custody: {0} could not be checked again before sending (nothing was sent)", tool), error, false);
    }
    return this.#report(tool, result);
  }

  /** A write an assistant prepared for this person, decided in the modal of the extension's own writes (see decideWaiting). */
  async decideWaiting(write: WaitingWrite): Promise<GuardedResult | { status: "left" | "gone" }> {
    const restricted = restrictedModeRefusal();
    if (restricted !== undefined) return this.#stop("refused", vscode.l10n.t("Custody: {0} refused: {1}", write.tool, restricted));
    const state = this.deps.connection.require();
    const road = this.#roadFor(state.client, state.target.operator);
    let outcome;
    try {
      outcome = await decideWaiting(road, write, {
        prompter: this.deps.prompter,
        baseUrl: state.client.baseUrl,
        progress: (work) => this.#progress(vscode.l10n.t("Custody: checking {0} on fresh data...", write.tool), work),
      });
    } catch (error) {
      return this.#failed(vscode.l10n.t("Custody: {0} could not be checked again before sending (nothing was sent)", write.tool), error, false);
    }
    if (outcome.status === "left") return outcome;
    if (outcome.status === "gone") {
      void notify(
        "info",
        vscode.l10n.t(
          "Custody: {0} no longer waits for you (decided elsewhere, replaced by a newer dry run, or expired); nothing was sent from here.",
          write.tool,
        ),
      );
      return outcome;
    }
    return this.#report(write.tool, outcome);
  }

  #showPlan(tool: string, plan: PlannedWrite): void {
    this.deps.output.block(
      vscode.l10n.t("{0}: {1} {2}", tool, whatMovesSentence(plan, { t: translate }), sanitizeUntrustedText(renderText(plan.summary, translate))),
      plan.checks.map((item) => vscode.l10n.t("[{0}] {1}: {2}", item.severity, item.code, sanitizeUntrustedText(findingMessage(item, translate)))),
    );
  }

  #report(tool: string, result: CommitResult): GuardedResult {
    switch (result.status) {
      case "refused":
        return this.#stop("refused", vscode.l10n.t("Custody: {0} refused: {1}", tool, renderText(result.text, translate)));
      case "blocked":
        return this.#stop(
          "blocked",
          vscode.l10n.t("Custody: {0} blocked{1}, nothing was sent.\n{2}", tool, blockedAt(result.stage), blockedText(result.plan)),
          true,
        );
      case "declined":
        this.deps.output.info(vscode.l10n.t("{0}: declined, nothing was sent", tool));
        return { status: "declined", message: vscode.l10n.t("declined") };
      case "failed":
        return this.#failed(
          vscode.l10n.t("Custody: {0} could not be checked again before sending (nothing was sent)", tool),
          new TextError(result.text),
          false,
        );
      case "rejected":
        this.deps.afterWrite();
        return this.#failed(vscode.l10n.t("Custody: {0} was refused by the service (not applied)", tool), new TextError(result.text), true);
      case "submitted": {
        this.deps.afterWrite();
        const tx = result.transaction;
        const message = vscode.l10n.t(
          "Custody: transaction #{0} ({1}) created, status {2}{3}. {4}",
          tx.id,
          labelText(tx.type, 40),
          labelText(tx.status, 40),
          result.looked_up ? vscode.l10n.t(" (found by look-up after a lost answer)") : "",
          whatMovesSentence(result.plan, { fee: false, t: translate }),
        );
        this.deps.output.info(vscode.l10n.t("{0}: {1}", tool, message));
        void notify("info", message);
        if (result.raced !== undefined) {
          const raced = sanitizeUntrustedText(renderText(result.raced.text, translate));
          this.deps.output.warn(vscode.l10n.t("{0}: {1}", tool, raced));
          void notify("warning", vscode.l10n.t("Custody: {0}", raced));
        }
        this.#auditProblem(result.audit_problem);
        return { status: "sent", result };
      }
      case "uncertain": {
        this.deps.afterWrite();
        const unknown = renderText(result.text, translate);
        this.deps.output.warn(vscode.l10n.t("{0}: {1}", tool, unknown));
        void notify("warning", vscode.l10n.t("Custody: {0} {1}", whatMovesSentence(result.plan, { fee: false, t: translate }), unknown));
        this.#auditProblem(result.audit_problem);
        return { status: "sent", result };
      }
    }
  }

  /** Once the request has gone, an audit failure must not hide the outcome: it is reported beside it. */
  #auditProblem(problem: LocalText | null): void {
    if (problem === null) return;
    const shown = renderText(problem, translate);
    this.deps.output.warn(shown);
    void notify("error", vscode.l10n.t("Custody: the request was sent, but {0}", shown));
  }

  #stop(status: "refused" | "blocked", message: string, modal = false): GuardedResult {
    this.deps.output.warn(message);
    if (modal) {
      // What moves leads the detail and is never cut: only the checks after it are (see blockedText).
      const [head = message, ...rest] = message.split("\n");
      void vscode.window.showErrorMessage(sanitizeUntrustedText(head), {
        modal: true,
        detail: sanitizeUntrustedText(rest.join("\n"), Number.POSITIVE_INFINITY),
      });
    } else {
      void notify("error", message);
    }
    return { status, message };
  }

  #failed(context: string, error: unknown, sent: boolean): GuardedResult {
    this.deps.output.error(context, error);
    const message = vscode.l10n.t("{0}: {1}", context, errorMessage(error, 1000, translate));
    void notify("error", message);
    return { status: "failed", message, sent };
  }
}
