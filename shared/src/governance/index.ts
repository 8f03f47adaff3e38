export * from "./rule-evaluation.js";
export * from "./rule-members.js";
export * from "./request-standing.js";
export * from "./pending-approvals.js";
export * from "./registration-standing.js";
export * from "./workspace-users.js";
