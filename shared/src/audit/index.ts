export * from "./audit-entry.js";
export * from "./canonical-json.js";
export * from "./chain-check.js";
export * from "./audit-log.js";
export * from "./audit-ledger.js";
export * from "./verify-audit-log.js";
export * from "./committed-amounts.js";
export * from "./audit-events.js";
export { LockBusyError, DEFAULT_LOCK_WAIT_MS } from "./file-lock.js";
