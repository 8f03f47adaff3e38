export * from "./policy.js";
export * from "./tool-permission.js";
export * from "./policy-checks.js";
