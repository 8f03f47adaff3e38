export * from "./amount-object.js";
export * from "./send-request.js";
export * from "./contract-interaction-request.js";
export * from "./polkadot-staking-requests.js";
export * from "./approve-request.js";
export * from "./solana-stake-requests.js";
export * from "./beacon-deposit-call.js";
