import type { Network } from "../../schemas/account.js";

/** Addresses that no one controls, by network: whatever is sent there is gone for good. */
const BURN_ADDRESSES: Record<Network, Record<string, string>> = {
  Ethereum: {
    "0x0000000000000000000000000000000000000000": "the zero address",
    "0x000000000000000000000000000000000000dead": "the 0x…dEaD burn address",
  },
  Solana: {
    "11111111111111111111111111111111": "the System Program's address",
    "1nc1nerator11111111111111111111111111111111": "the incinerator address",
  },
  Polkadot: {},
};

/** What the address is when it is a known burn address of the network (Ethereum compared without regard to case), else undefined. */
export function burnAddressName(network: Network, address: string): string | undefined {
  const written = address.trim();
  return BURN_ADDRESSES[network][network === "Ethereum" ? written.toLowerCase() : written];
}
