export * from "./json/exact-json.js";
export * from "./schemas/index.js";
export * from "./units/index.js";
export * from "./untrusted/index.js";
export * from "./audit/index.js";
export * from "./rules/index.js";
export * from "./governance/index.js";
