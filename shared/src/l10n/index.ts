export * from "./translate.js";
