import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-custody-signature";

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the subscription secret>`. */
export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  const mac = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestampSeconds}.${body}`));
  return `t=${timestampSeconds},v1=${bytesToHex(mac)}`;
}

/** Checks a signature header against the body; refuses timestamps further than `toleranceSeconds` from now. */
export function verifyWebhookSignature(
  header: string,
  secret: string,
  body: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1");
  if (!Number.isSafeInteger(timestamp) || given === undefined) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = signWebhook(secret, timestamp, body).split("v1=")[1] ?? "";
  return expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
