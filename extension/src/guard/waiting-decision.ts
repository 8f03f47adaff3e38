import * as vscode from "vscode";
import { decisionConsent, type CommitResult, type Consent, type PlannedWrite, type WaitingWrite, type WriteRoad } from "@custody/shared";
import type { Prompter } from "../input/prompter.js";
import { confirmationText } from "./confirmation-text.js";

/** What became of a waiting write: the road's outcome, or nothing done (`left`: the dialog closed; `gone`: it no longer waits). */
export type WaitingOutcome = CommitResult | { status: "left" } | { status: "gone" };

/**
 * A write an assistant prepared for this person (person mode), decided in the extension: the road's
 * question (checked again on fresh data, with the dry run's figures, nothing used up) in the modal
 * of the extension's own writes; Confirm commits it through the road (one POST), Decline records
 * the decision (nothing sent), and closing the dialog leaves it waiting. The answer counts for what
 * the modal showed: if the checks changed it since, nothing is sent.
 */
export async function decideWaiting(
  road: WriteRoad,
  write: WaitingWrite,
  ask: { prompter: Prompter; baseUrl: string; progress<T>(work: () => Promise<T>): Promise<T> },
): Promise<WaitingOutcome> {
  const request = await road.keptRequest(write.nonce);
  if (request === null) return { status: "gone" };
  const actor = { person: null };
  const asked = await ask.progress(() => road.question(request, write.nonce, { actor }));
  if (asked.status !== "question") return asked;
  const shown = confirmationText(asked.plan, ask.baseUrl);
  const decline = vscode.l10n.t("Decline");
  const choice = await ask.prompter.choose({
    message: vscode.l10n.t("An assistant prepared this write. {0}", shown.message),
    detail: shown.detail,
    actions: [vscode.l10n.t("Confirm"), decline],
  });
  if (choice === undefined) return { status: "left" };
  const decision = choice === decline ? "decline" : "confirm";
  const consentTo = (plan: PlannedWrite): Consent => {
    const now = confirmationText(plan, ask.baseUrl);
    return decisionConsent(decision, "vscode", `${shown.message}\n${shown.detail}`, `${now.message}\n${now.detail}`);
  };
  return ask.progress(() => road.commit(request, write.nonce, { actor, consent: { ask: async (plan) => consentTo(plan) } }));
}
