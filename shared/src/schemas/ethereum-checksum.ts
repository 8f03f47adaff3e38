import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * The EIP-55 spelling of 40 hex digits (with or without 0x): each letter upper case where the
 * matching nibble of keccak-256 of the lower-case digits is 8 or more.
 */
export function eip55Checksummed(hex40: string): string {
  const lower = hex40.replace(/^0x/i, "").toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let spelled = "0x";
  for (let index = 0; index < lower.length; index += 1) {
    const digit = lower[index] ?? "";
    spelled += "89abcdef".includes(hash[index] ?? "0") ? digit.toUpperCase() : digit;
  }
  return spelled;
}

/**
 * Whether the case of an address's hex letters carries no checksum (all one case) or carries a
 * valid EIP-55 one. A mixed-case address that fails is mistyped somewhere: sending to it would
 * send to another address.
 */
export function hasValidEip55Case(address: string): boolean {
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return eip55Checksummed(digits) === `0x${digits}`;
}
