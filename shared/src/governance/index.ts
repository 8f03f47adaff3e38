export * from "./rule-evaluation.js";
