import { eip55Checksummed } from "@custody/shared";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { polkadotAddress, solanaAddress } from "../hsm/addresses.js";

/** Addresses outside the workspace for the demo's history, derived from labels so they are valid and stable. */
export const externalSolana = (label: string): string => solanaAddress(sha256(utf8ToBytes(`demo:${label}`)));
export const externalPolkadot = (label: string): string => polkadotAddress(sha256(utf8ToBytes(`demo:${label}`)));
export const externalEthereum = (label: string): string => eip55Checksummed(bytesToHex(keccak_256(utf8ToBytes(`demo:${label}`)).slice(-20)));

export const KILN_DEPOSIT_CONTRACT = "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270";
export const FIGMENT_DEPOSIT_CONTRACT = "0x39DC6a99209B5e6B81dC8540C86Ff10981ebDA29";
export const BEACON_DEPOSIT_CONTRACT = "0x00000000219ab540356cBB839Cbe05303d7705Fa";
export const USDC_CONTRACT = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
