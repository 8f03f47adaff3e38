import type { AnonymousProxy } from "@custody/shared";
import { blake2b } from "@noble/hashes/blake2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { isoWithOffset } from "../clock/timestamps.js";
import { base58Decode } from "../hsm/base58.js";
import { polkadotAddress } from "../hsm/addresses.js";
import type { AccountRow } from "../store/state-types.js";
import { BLOCK_TIME_MS, POLKADOT_GENESIS_MS } from "./network-constants.js";

/** pallet_proxy's prefix of a pure (anonymous) proxy's entropy. */
const PURE_PROXY_PREFIX = utf8ToBytes("modlpy/proxy____");
/** Polkadot's ProxyType::Staking, as SCALE encodes the enum (one byte, its index). */
const PROXY_TYPE_STAKING = 3;
const EXT_INDEX = 0;
const DISAMBIGUATION_INDEX = 0;

function u32le(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
}

function u16le(value: number): Uint8Array {
  const bytes = new Uint8Array(2);
  new DataView(bytes.buffer).setUint16(0, value, true);
  return bytes;
}

/** The Polkadot block height at a time: 6-second blocks since genesis. */
export function polkadotBlockHeight(ms: number): number {
  return Math.max(0, Math.floor((ms - POLKADOT_GENESIS_MS) / BLOCK_TIME_MS.Polkadot));
}

/** The 32-byte account id inside an SS58 address (prefix byte 0, id, 2 checksum bytes). */
function accountId(address: string): Uint8Array {
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 35) throw new Error(`not a Polkadot SS58 address: ${address}`);
  return bytes.slice(1, 33);
}

/** Derived addresses by spawner and height: base58 and blake2 cost ~50 µs an account, paid once, not on every listing. */
const derived = new Map<string, string>();
const DERIVED_CAP = 100_000;

function pureProxyAddress(spawner: string, height: number): string {
  const key = `${spawner}@${height}`;
  const cached = derived.get(key);
  if (cached !== undefined) return cached;
  const entropy = concatBytes(
    PURE_PROXY_PREFIX,
    accountId(spawner),
    u32le(height),
    u32le(EXT_INDEX),
    Uint8Array.of(PROXY_TYPE_STAKING),
    u16le(DISAMBIGUATION_INDEX),
  );
  const address = polkadotAddress(blake2b(entropy, { dkLen: 32 }));
  if (derived.size >= DERIVED_CAP) derived.clear();
  derived.set(key, address);
  return address;
}

/**
 * The account's pure proxy as pallet_proxy derives one: blake2-256 of ("modlpy/proxy____", spawner,
 * block height, extrinsic index, proxy type, index), SCALE-encoded; created with the account (its
 * block height), the first extrinsic of that block, kind Staking, index 0. It holds nothing.
 */
export function pureProxyOf(account: AccountRow): AnonymousProxy {
  const height = polkadotBlockHeight(account.created_on_ms);
  return {
    address: pureProxyAddress(account.address, height),
    balances: { available: 0n, bonded: 0n, free: 0n, reserved: 0n, total: 0n, frozen: 0n },
    block_height: height,
    created_at: isoWithOffset(account.created_on_ms),
    ext_index: EXT_INDEX,
    index: DISAMBIGUATION_INDEX,
    is_controller: false,
    is_main: false,
    kind: "Staking",
  };
}
