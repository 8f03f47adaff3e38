/** Any address: non-empty, no whitespace. */
export const ANY_ADDRESS = /^\S+$/;
export const ANY_ADDRESS_RULE = "must be a non-empty address without spaces";

/** An Ethereum address: 0x and 20 bytes in hex (checksum case accepted as is). */
export const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const ETHEREUM_ADDRESS_RULE = "must be an Ethereum address: 0x followed by 40 hex digits";

/** A Solana public key: 32 bytes in base58, 32 to 44 characters. */
export const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
export const SOLANA_ADDRESS_RULE = "must be a Solana address: 32 to 44 base58 characters";
