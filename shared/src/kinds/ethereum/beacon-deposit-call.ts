import { eip55Checksummed } from "../../schemas/ethereum-checksum.js";

/**
 * The beacon deposit contract's `deposit(bytes pubkey, bytes withdrawal_credentials, bytes
 * signature, bytes32 deposit_data_root)` call, ABI-encoded: the call every staking provider's
 * deposit ends in, and the only contract call the guard knows how to read.
 */
export const DEPOSIT_SELECTOR = "22895118";

export interface DepositCallParts {
  /** 48 bytes, hex without 0x. */
  pubkey: string;
  /** 32 bytes, hex without 0x. */
  withdrawal_credentials: string;
  /** 96 bytes, hex without 0x. */
  signature: string;
  /** 32 bytes, hex without 0x. */
  deposit_data_root: string;
}

const WORD = 64;
/** Each dynamic argument: its offset in the head, its length in bytes, and its name. */
const DYNAMIC = [
  { name: "pubkey", offset: 0x80, bytes: 48 },
  { name: "withdrawal_credentials", offset: 0xe0, bytes: 32 },
  { name: "signature", offset: 0x120, bytes: 96 },
] as const;
/** Selector, four head words, then each dynamic argument as a length word and its bytes padded to whole words: 420 bytes. */
export const DEPOSIT_CALL_BYTES = 4 + 0x120 + 32 + 96;

const word = (value: number) => value.toString(16).padStart(WORD, "0");
const padded = (hex: string) => hex.padEnd(Math.ceil(hex.length / WORD) * WORD, "0");

/** The call data of one deposit (0x-prefixed), canonical ABI encoding. */
export function encodeDepositCall(parts: DepositCallParts): string {
  const head = DYNAMIC.map((argument) => word(argument.offset)).join("") + parts.deposit_data_root;
  const tail = DYNAMIC.map((argument) => word(argument.bytes) + padded(parts[argument.name])).join("");
  return `0x${DEPOSIT_SELECTOR}${head}${tail}`;
}

/**
 * The parts of call data that is exactly one canonically encoded deposit, or why it is not:
 * the selector, the length, each offset and length word, and zero padding are all checked.
 */
export function decodeDepositCall(contractData: string): { parts: DepositCallParts } | { problem: string } {
  const hex = (contractData.startsWith("0x") ? contractData.slice(2) : contractData).toLowerCase();
  if (hex === "") return { problem: "is empty" };
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) return { problem: "is not hex-encoded bytes" };
  if (!hex.startsWith(DEPOSIT_SELECTOR)) return { problem: `does not start with the deposit selector 0x${DEPOSIT_SELECTOR} (it starts 0x${hex.slice(0, 8)})` };
  if (hex.length !== DEPOSIT_CALL_BYTES * 2) return { problem: `is ${hex.length / 2} bytes, not the ${DEPOSIT_CALL_BYTES} bytes of one deposit call` };
  const body = hex.slice(DEPOSIT_SELECTOR.length);
  const at = (byte: number, bytes: number) => body.slice(byte * 2, (byte + bytes) * 2);
  const values: string[] = [];
  for (const [index, argument] of DYNAMIC.entries()) {
    if (at(index * 32, 32) !== word(argument.offset))
      return { problem: `has ${argument.name}'s offset 0x${BigInt(`0x${at(index * 32, 32)}`).toString(16)}, not 0x${argument.offset.toString(16)}` };
    if (at(argument.offset, 32) !== word(argument.bytes)) return { problem: `gives ${argument.name} a length other than ${argument.bytes} bytes` };
    const value = at(argument.offset + 32, Math.ceil(argument.bytes / 32) * 32);
    if (!/^0*$/.test(value.slice(argument.bytes * 2))) return { problem: `has non-zero padding after ${argument.name}` };
    values.push(value.slice(0, argument.bytes * 2));
  }
  const [pubkey, withdrawal_credentials, signature] = values as [string, string, string];
  return { parts: { pubkey, withdrawal_credentials, signature, deposit_data_root: at(3 * 32, 32) } };
}

/**
 * Who a deposit's 32 ETH goes back to: withdrawal credentials 0x01 or 0x02, eleven zero bytes and
 * an execution address (returned EIP-55 checksummed), or why the guard cannot name one (0x00
 * credentials name a BLS key, whose holder the guard cannot tell; any other prefix is unknown).
 */
export function withdrawalAddress(credentials: string): { address: string } | { problem: string } {
  const prefix = credentials.slice(0, 2);
  if (prefix === "00") return { problem: "are BLS credentials (prefix 0x00): they name a BLS key, and the guard cannot tell whose key it is" };
  if (prefix !== "01" && prefix !== "02") return { problem: `have prefix 0x${prefix}, not 0x01 or 0x02 followed by an execution address` };
  if (!/^0{22}$/.test(credentials.slice(2, 24)))
    return { problem: `have prefix 0x${prefix} but bytes 1 to 11 are not zero: they do not name one execution address` };
  return { address: eip55Checksummed(credentials.slice(24)) };
}

/** The withdrawal address of call data that is one deposit with execution credentials, else undefined. */
export function depositWithdrawalAddress(contractData: string): string | undefined {
  const decoded = decodeDepositCall(contractData);
  if ("problem" in decoded) return undefined;
  const withdrawal = withdrawalAddress(decoded.parts.withdrawal_credentials);
  return "address" in withdrawal ? withdrawal.address : undefined;
}
