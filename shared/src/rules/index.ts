export * from "./finding.js";
export * from "./send-rules.js";
export * from "./polkadot-rules.js";
export * from "./solana-stake-rules.js";
export * from "./ethereum-stake-rules.js";
export * from "./module-version-rule.js";
export * from "./address-format-rule.js";
