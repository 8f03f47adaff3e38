export * from "./duration-text.js";
export * from "./solana-epochs.js";
export * from "./polkadot-unlocks.js";
