import { randomUUID } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { base58Encode } from "../../hsm/base58.js";

/** A new stake's uid and the address of its stake account (derived from the account and the uid, like a program address). */
export function newStakeIdentity(accountAddress: string): { uid: string; pubKey: string } {
  const uid = randomUUID();
  return { uid, pubKey: base58Encode(sha256(utf8ToBytes(`stake:${accountAddress}:${uid}`))) };
}
