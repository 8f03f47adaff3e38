export * from "./policy.js";
export * from "./limit-scope.js";
export * from "./person-grant.js";
export * from "./tool-permission.js";
export * from "./policy-limit.js";
export * from "./daily-limit.js";
export * from "./policy-checks.js";
export * from "./policy-currencies.js";
