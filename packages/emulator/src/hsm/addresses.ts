import { eip55Checksummed } from "@custody/shared";
import { blake2b } from "@noble/hashes/blake2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base58Encode } from "./base58.js";

/** A Solana address: the base58 of the 32-byte ed25519 public key. */
export function solanaAddress(publicKey: Uint8Array): string {
  return base58Encode(publicKey);
}

/** An Ethereum address: the last 20 bytes of keccak-256 of the uncompressed key (without 0x04), EIP-55 checksummed. */
export function ethereumAddress(uncompressedPublicKey: Uint8Array): string {
  const body = uncompressedPublicKey.length === 65 ? uncompressedPublicKey.slice(1) : uncompressedPublicKey;
  return eip55Checksummed(bytesToHex(keccak_256(body).slice(-20)));
}

const SS58_PREFIX = utf8ToBytes("SS58PRE");
const POLKADOT_NETWORK = 0;

/** A Polkadot address: SS58 with network prefix 0 over the 32-byte ed25519 public key. */
export function polkadotAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(POLKADOT_NETWORK), publicKey);
  const checksum = blake2b(concatBytes(SS58_PREFIX, payload), { dkLen: 64 }).slice(0, 2);
  return base58Encode(concatBytes(payload, checksum));
}
