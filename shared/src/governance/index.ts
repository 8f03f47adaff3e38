export * from "./rule-evaluation.js";
export * from "./rule-members.js";
