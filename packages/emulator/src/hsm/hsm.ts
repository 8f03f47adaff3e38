import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { blake2b } from "@noble/hashes/blake2.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import type { NetworkName } from "../store/state-types.js";
import { ethereumAddress, polkadotAddress, solanaAddress } from "./addresses.js";
import { base58Encode } from "./base58.js";

export interface SignedTransaction {
  /** Hex of the signature (never a key). */
  signature: string;
  /** The network's transaction hash, derived from the signed bytes. */
  tx_hash: string;
}

type Curve = "ed25519" | "secp256k1";

function curveOf(network: NetworkName): Curve {
  return network === "Ethereum" ? "secp256k1" : "ed25519";
}

/**
 * The signing module: one key per account (ed25519 for Solana and Polkadot, secp256k1 for
 * Ethereum), derived from the master secret with HKDF-SHA256. Secret keys never leave this
 * object; only public keys, addresses and signatures do.
 */
export class Hsm {
  readonly #master: Uint8Array;
  readonly #keys = new Map<string, Uint8Array>();

  constructor(master: Uint8Array) {
    this.#master = master;
  }

  #secretKey(network: NetworkName, keyId: string): Uint8Array {
    const curve = curveOf(network);
    const cacheKey = `${curve}:${keyId}`;
    const cached = this.#keys.get(cacheKey);
    if (cached) return cached;
    for (let counter = 0; ; counter += 1) {
      const info = utf8ToBytes(`custody-emulator/${curve}/${keyId}/${counter}`);
      const candidate = hkdf(sha256, this.#master, undefined, info, 32);
      const valid = curve === "ed25519" ? ed25519.utils.isValidSecretKey(candidate) : secp256k1.utils.isValidSecretKey(candidate);
      if (valid) {
        this.#keys.set(cacheKey, candidate);
        return candidate;
      }
    }
  }

  /** The public key of the account's key (hex; Ethereum uncompressed). */
  publicKey(network: NetworkName, keyId: string): Uint8Array {
    const secret = this.#secretKey(network, keyId);
    return network === "Ethereum" ? secp256k1.getPublicKey(secret, false) : ed25519.getPublicKey(secret);
  }

  address(network: NetworkName, keyId: string): string {
    const publicKey = this.publicKey(network, keyId);
    if (network === "Solana") return solanaAddress(publicKey);
    if (network === "Polkadot") return polkadotAddress(publicKey);
    return ethereumAddress(publicKey);
  }

  /**
   * Signs the canonical bytes of an approved transaction with the account's key. The hash is
   * Solana: base58 of the signature; Ethereum: 0x keccak-256 of bytes and signature;
   * Polkadot: 0x blake2b-256 of bytes and signature.
   */
  sign(network: NetworkName, keyId: string, message: Uint8Array): SignedTransaction {
    const secret = this.#secretKey(network, keyId);
    if (network === "Ethereum") {
      const recovered = secp256k1.sign(keccak_256(message), secret, { prehash: false, format: "recovered" });
      // noble puts the recovery byte first; Ethereum writes r, s, then v.
      const signature = concatBytes(recovered.slice(1), recovered.slice(0, 1));
      return { signature: bytesToHex(signature), tx_hash: `0x${bytesToHex(keccak_256(concatBytes(message, signature)))}` };
    }
    const signature = ed25519.sign(message, secret);
    if (network === "Solana") return { signature: bytesToHex(signature), tx_hash: base58Encode(signature) };
    return { signature: bytesToHex(signature), tx_hash: `0x${bytesToHex(blake2b(concatBytes(message, signature), { dkLen: 32 }))}` };
  }

  /** Checks a signature against the account's public key (for tests and audits). */
  verify(network: NetworkName, keyId: string, message: Uint8Array, signatureHex: string): boolean {
    const signature = Uint8Array.from(Buffer.from(signatureHex, "hex"));
    const publicKey = this.publicKey(network, keyId);
    if (network === "Ethereum") {
      return secp256k1.verify(signature.slice(0, 64), keccak_256(message), publicKey, { prehash: false, format: "compact" });
    }
    return ed25519.verify(signature, message, publicKey);
  }

  /** Never show key material when the object is printed or logged. */
  toJSON(): string {
    return "[Hsm]";
  }
}
