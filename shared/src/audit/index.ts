export * from "./audit-entry.js";
export * from "./canonical-json.js";
export * from "./audit-log.js";
export * from "./committed-amounts.js";
export * from "./audit-events.js";
export * from "./sealed-record.js";
export * from "./chain-verifier.js";
export * from "./commitment-effect.js";
