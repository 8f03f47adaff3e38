export * from "./translate.js";
export * from "./local-text-json.js";
