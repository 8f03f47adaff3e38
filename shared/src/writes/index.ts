export * from "./write-spec.js";
export * from "./write-registry.js";
export * from "./request-fields.js";
export * from "./polkadot-balance-draws.js";
