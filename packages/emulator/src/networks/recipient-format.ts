import { isEthereumAddress, isPolkadotAddress, isSolanaAddress } from "../hsm/addresses.js";
import type { NetworkName } from "../store/state-types.js";

const FORMS: Record<NetworkName, [(text: string) => boolean, string]> = {
  Solana: [isSolanaAddress, "a Solana address (base58 of 32 bytes)"],
  Ethereum: [isEthereumAddress, "an Ethereum address (0x then 40 hex digits)"],
  Polkadot: [isPolkadotAddress, "a Polkadot SS58 address (network prefix 0) with a valid checksum"],
};

/** Undefined when the address has the network's form, else what the form is. */
export function addressProblem(network: NetworkName, address: string): string | undefined {
  const [valid, form] = FORMS[network];
  return valid(address) ? undefined : `must be ${form}, got ${JSON.stringify(address)}`;
}
