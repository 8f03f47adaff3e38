export * from "./json/exact-json.js";
export * from "./schemas/index.js";
