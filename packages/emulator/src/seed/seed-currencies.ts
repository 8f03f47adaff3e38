import type { Currency, Token } from "@custody/shared";

/** The emulated networks' currencies; units[1] is the display unit. `network` tells the emulator which network it is. */
export const SEED_CURRENCIES: Currency[] = [
  {
    name: "solana_testnet",
    network: "Solana",
    units: [
      { code: "lamport", magnitude: 0 },
      { code: "SOL", magnitude: 9 },
    ],
  },
  {
    name: "polkadot",
    network: "Polkadot",
    units: [
      { code: "planck", magnitude: 0 },
      { code: "DOT", magnitude: 10 },
    ],
  },
  {
    name: "ethereum",
    network: "Ethereum",
    units: [
      { code: "wei", magnitude: 0 },
      { code: "ETH", magnitude: 18 },
      { code: "Gwei", magnitude: 9 },
    ],
  },
];

export const SEED_TOKENS: Token[] = [
  {
    name: "usd_coin",
    parent_currency: "ethereum",
    contract_address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    units: [
      { code: "usdc-base", magnitude: 0 },
      { code: "USDC", magnitude: 6 },
    ],
  },
  {
    name: "tether",
    parent_currency: "ethereum",
    contract_address: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    units: [
      { code: "usdt-base", magnitude: 0 },
      { code: "USDT", magnitude: 6 },
    ],
  },
  {
    name: "chainlink",
    parent_currency: "ethereum",
    contract_address: "0x514910771AF9Ca656af840dff83E8264EcF986CA",
    units: [
      { code: "link-base", magnitude: 0 },
      { code: "LINK", magnitude: 18 },
    ],
  },
  {
    name: "usd_coin_solana_testnet",
    parent_currency: "solana_testnet",
    contract_address: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    units: [
      { code: "usdc-base", magnitude: 0 },
      { code: "USDC", magnitude: 6 },
    ],
  },
];
