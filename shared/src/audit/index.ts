export * from "./audit-entry.js";
export * from "./canonical-json.js";
export * from "./audit-log.js";
