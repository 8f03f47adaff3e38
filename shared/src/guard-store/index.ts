export * from "./guard-store.js";
export * from "./file-guard-store.js";
export * from "./write-traces.js";
export * from "./store-location.js";
export * from "./lookup-tally.js";
