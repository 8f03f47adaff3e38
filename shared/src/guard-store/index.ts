export * from "./guard-store.js";
export * from "./file-guard-store.js";
export * from "../audit/write-traces.js";
export * from "./store-location.js";
