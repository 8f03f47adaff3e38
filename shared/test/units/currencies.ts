import { Currency, Token } from "../../src/index.js";

// Parsed through the real schemas, so a fixture the service could not send fails loudly.
export const SOL = Currency.parse({
  name: "SOL",
  units: [
    { code: "lamport", magnitude: 0 },
    { code: "SOL", magnitude: 9 },
  ],
});

export const DOT = Currency.parse({
  name: "DOT",
  units: [
    { code: "Planck", magnitude: 0 },
    { code: "DOT", magnitude: 10 },
  ],
});

export const ETH = Currency.parse({
  name: "ETH",
  units: [
    { code: "wei", magnitude: 0 },
    { code: "ETH", magnitude: 18 },
    { code: "Gwei", magnitude: 9 },
  ],
});

export const BASE_ONLY = Currency.parse({
  name: "BASE",
  units: [{ code: "unit", magnitude: 0 }],
});

export const USDC = Token.parse({
  name: "USDC",
  parent_currency: "ETH",
  contract_address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
  units: [
    { code: "base", magnitude: 0 },
    { code: "USDC", magnitude: 6 },
  ],
});

export const ALL_CURRENCIES = [SOL, DOT, ETH, BASE_ONLY, USDC] as const;
