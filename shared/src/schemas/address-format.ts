import { createHash } from "node:crypto";
import type { Network } from "./account.js";
import { base58Decode } from "./base58.js";
import { hasValidEip55Case } from "./ethereum-checksum.js";
import { localText, renderText } from "../l10n/translate.js";

/** Any address: non-empty, no whitespace. */
export const ANY_ADDRESS = /^\S+$/;
export const ANY_ADDRESS_RULE_TEXT = localText("must be a non-empty address without spaces");
export const ANY_ADDRESS_RULE = renderText(ANY_ADDRESS_RULE_TEXT);

/** The form of an Ethereum address: 0x and 20 bytes in hex. isEthereumAddress also checks a mixed-case checksum. */
export const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const ETHEREUM_ADDRESS_RULE_TEXT = localText(
  "must be an Ethereum address: 0x followed by 40 hex digits, all in one case or in mixed case with a valid EIP-55 checksum",
);
export const ETHEREUM_ADDRESS_RULE = renderText(ETHEREUM_ADDRESS_RULE_TEXT);

/** A Solana public key: 32 bytes in base58, 32 to 44 characters. */
export const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
export const SOLANA_ADDRESS_RULE_TEXT = localText("must be a Solana address: 32 to 44 base58 characters");
export const SOLANA_ADDRESS_RULE = renderText(SOLANA_ADDRESS_RULE_TEXT);

const POLKADOT_SS58 = /^[1-9A-HJ-NP-Za-km-z]{46,48}$/;
const SS58_PREFIX = Buffer.from("SS58PRE", "utf8");
const POLKADOT_NETWORK_PREFIX = 0;

/** The Solana form, and the base58 decodes to exactly 32 bytes. */
export function isSolanaAddress(text: string): boolean {
  const bytes = SOLANA_ADDRESS.test(text) ? base58Decode(text) : undefined;
  return bytes !== undefined && bytes.length === 32;
}

/** 0x and 40 hex digits; in mixed case, only with a valid EIP-55 checksum. */
export function isEthereumAddress(text: string): boolean {
  return ETHEREUM_ADDRESS.test(text) && hasValidEip55Case(text);
}

/** An SS58 Polkadot address: network prefix 0, a 32-byte key and the two checksum bytes of blake2b-512("SS58PRE" ‖ prefix ‖ key). */
export function isPolkadotAddress(text: string): boolean {
  const bytes = POLKADOT_SS58.test(text) ? base58Decode(text) : undefined;
  if (bytes?.length !== 35 || bytes[0] !== POLKADOT_NETWORK_PREFIX) return false;
  const checksum = createHash("blake2b512").update(SS58_PREFIX).update(bytes.subarray(0, 33)).digest();
  return checksum[0] === bytes[33] && checksum[1] === bytes[34];
}

const FORMS: Record<Network, [(text: string) => boolean, string]> = {
  Solana: [isSolanaAddress, "a Solana address (base58 of 32 bytes)"],
  Ethereum: [isEthereumAddress, "an Ethereum address (0x then 40 hex digits; in mixed case, a valid EIP-55 checksum)"],
  Polkadot: [isPolkadotAddress, "a Polkadot SS58 address (network prefix 0) with a valid checksum"],
};

/** Undefined when the address has the network's form, else the rule it breaks (for a message "<field>: ..."). */
export function addressProblem(network: Network, address: string): string | undefined {
  const [valid, form] = FORMS[network];
  return valid(address) ? undefined : `must be ${form}, got ${JSON.stringify(address)}`;
}

/**
 * Whether two written addresses name the same account on the network. Base58 (Solana) and SS58
 * (Polkadot) are case-sensitive: a case variant is another address. Only Ethereum's hex is
 * compared without regard to case; an unknown network is compared exactly.
 */
export function sameAddress(network: Network | null, a: string, b: string): boolean {
  const left = a.trim();
  const right = b.trim();
  if (network === "Ethereum" && ETHEREUM_ADDRESS.test(left) && ETHEREUM_ADDRESS.test(right)) return left.toLowerCase() === right.toLowerCase();
  return left === right;
}
