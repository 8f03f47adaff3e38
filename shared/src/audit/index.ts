export * from "./audit-entry.js";
export * from "./canonical-json.js";
export * from "./audit-log.js";
export * from "./committed-amounts.js";
export * from "./audit-events.js";
export * from "./audit-bounds.js";
