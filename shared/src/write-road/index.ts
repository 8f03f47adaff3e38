export * from "./planned-write.js";
export * from "./road-types.js";
export * from "./write-road.js";
export * from "./lost-answer-lookup.js";
export { requestDigest, intentFingerprint } from "./request-digest.js";
export { isAmbiguous } from "./send-once.js";
export * from "./submission-standing.js";
export { failureEvent, withoutSecrets } from "./operation-failure.js";
export * from "./what-moves.js";
export {
  identicalInWorkspace,
  HISTORY_FIRST_PAGE,
  HISTORY_KNOWN_FIRST_PAGE,
  HISTORY_MAX_READ,
  type WorkspaceHistory,
  type IdenticalTransaction,
} from "./workspace-history.js";
export { historyPages, type HistoryPage } from "./history-pages.js";
export { lookedUpBy, lookupsText, unclearAnswerText, unknownOutcomeText } from "./unknown-outcome-text.js";
export * from "./waiting-writes.js";
export * from "./decision-consent.js";
export { intentWrite, usedStanding, type UsedStanding } from "./used-intent-write.js";
export { keptRequestDifferences, type KeptForm } from "./kept-request.js";
