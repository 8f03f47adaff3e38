import { ETHEREUM_ADDRESS, SOLANA_ADDRESS } from "@custody/shared";
import { blake2b } from "@noble/hashes/blake2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base58Decode, base58Encode } from "./base58.js";

/** A Solana address: the base58 of the 32-byte ed25519 public key. */
export function solanaAddress(publicKey: Uint8Array): string {
  return base58Encode(publicKey);
}

/** An Ethereum address: the last 20 bytes of keccak-256 of the uncompressed key (without 0x04), EIP-55 checksummed. */
export function ethereumAddress(uncompressedPublicKey: Uint8Array): string {
  const body = uncompressedPublicKey.length === 65 ? uncompressedPublicKey.slice(1) : uncompressedPublicKey;
  return toChecksumAddress(bytesToHex(keccak_256(body).slice(-20)));
}

export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase().replace(/^0x/, "");
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = "0x";
  for (let index = 0; index < lower.length; index += 1) {
    const character = lower[index] ?? "";
    out += Number.parseInt(hash[index] ?? "0", 16) >= 8 ? character.toUpperCase() : character;
  }
  return out;
}

const SS58_PREFIX = utf8ToBytes("SS58PRE");
const POLKADOT_NETWORK = 0;

/** A Polkadot address: SS58 with network prefix 0 over the 32-byte ed25519 public key. */
export function polkadotAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(POLKADOT_NETWORK), publicKey);
  const checksum = blake2b(concatBytes(SS58_PREFIX, payload), { dkLen: 64 }).slice(0, 2);
  return base58Encode(concatBytes(payload, checksum));
}

/** shared's Solana address form, and the base58 must decode to exactly 32 bytes. */
export function isSolanaAddress(text: string): boolean {
  const bytes = SOLANA_ADDRESS.test(text) ? base58Decode(text) : undefined;
  return bytes !== undefined && bytes.length === 32;
}

export function isEthereumAddress(text: string): boolean {
  return ETHEREUM_ADDRESS.test(text);
}

/** An SS58 Polkadot address (prefix 0) whose checksum is right. */
export function isPolkadotAddress(text: string): boolean {
  const bytes = /^[1-9A-HJ-NP-Za-km-z]{46,48}$/.test(text) ? base58Decode(text) : undefined;
  if (bytes?.length !== 35 || bytes[0] !== POLKADOT_NETWORK) return false;
  const checksum = blake2b(concatBytes(SS58_PREFIX, bytes.slice(0, 33)), { dkLen: 64 }).slice(0, 2);
  return checksum[0] === bytes[33] && checksum[1] === bytes[34];
}
