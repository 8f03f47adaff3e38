import { randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { ApiUser } from "@custody/shared";
import type { EmulatorContext } from "../../context.js";
import { isoWithOffset } from "../../clock/timestamps.js";
import { conflict } from "../domain-error.js";
import type { ModuleUserRow } from "../../store/state-types.js";
import { findModuleUser } from "../lookups.js";

/**
 * POST /api_users, step 1 of registration: the module creates the operator's device
 * identifier and soft key pair, keeps the secret in its storage, and answers the API user.
 */
export async function createApiUser(ctx: EmulatorContext, name: string): Promise<ApiUser> {
  if (findModuleUser(ctx.store, name)) throw conflict("ApiUserExists", `name: the module already has an API user named ${JSON.stringify(name)}`);
  const secretKey = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(secretKey);
  const row: ModuleUserRow = {
    name,
    device_id: randomBytes(16).toString("hex"),
    pub_key: bytesToHex(publicKey),
    key_handle: bytesToHex(sha256(publicKey).slice(0, 16)),
    created_on_ms: ctx.clock.now(),
  };
  ctx.moduleStorage.saveOperator(
    { name, device_id: row.device_id, secret_key: bytesToHex(secretKey) },
    { name, device_id: row.device_id, pub_key: row.pub_key, key_handle: row.key_handle, issued_on: isoWithOffset(row.created_on_ms) },
  );
  await ctx.commit((tx) => {
    if (tx.get("module_users", name)) throw conflict("ApiUserExists", `name: the module already has an API user named ${JSON.stringify(name)}`);
    tx.put("module_users", name, row);
  });
  return { device_id: row.device_id, name, role: "OPERATOR", type_: "SOFT_PSD", workspace: ctx.store.meta().workspace };
}
