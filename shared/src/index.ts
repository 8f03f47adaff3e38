export * from "./json/exact-json.js";
export * from "./schemas/index.js";
export * from "./units/index.js";
