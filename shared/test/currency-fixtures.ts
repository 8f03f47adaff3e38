import type { Currency } from "../src/schemas/currency.js";
import type { SendRequestInput } from "../src/kinds/send/send-request.js";

export const SOL: Currency = {
  name: "SOL",
  units: [
    { code: "lamport", magnitude: 0 },
    { code: "SOL", magnitude: 9 },
  ],
};
export const DOT: Currency = {
  name: "DOT",
  units: [
    { code: "planck", magnitude: 0 },
    { code: "DOT", magnitude: 10 },
  ],
};
export const ETH: Currency = {
  name: "ETH",
  units: [
    { code: "wei", magnitude: 0 },
    { code: "ETH", magnitude: 18 },
    { code: "gwei", magnitude: 9 },
  ],
};

export const SOLANA_RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
export const SOLANA_VALIDATOR = "CertusDeBmqN8ZawdkxK5kFGMwBXdudvWHYwtNgNhvLu";
export const POLKADOT_RECIPIENT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
export const ETHEREUM_RECIPIENT = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
/** A staking provider's deposit contract. */
export const STAKING_CONTRACT = "0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84";
/** submit(address referral) with a zero referral. */
export const STAKING_CALL_DATA = `0xa1903eab${"0".repeat(64)}`;

/** The spec's Solana send: 1.5 SOL from sol-hot, fees capped at 5000 lamports. */
export const SOLANA_PAYOUT: SendRequestInput = {
  network: "Solana",
  account_name: "sol-hot",
  recipient: SOLANA_RECIPIENT,
  amount: 1_500_000_000n,
  max_fees: 5_000n,
  speed: "NORMAL",
  currency: SOL,
};
