import type { NetworkName } from "../store/state-types.js";
import { DAY_MS } from "../clock/timestamps.js";

/** Confirmations after which a transaction counts as final, per network (Solana: 10, as seen in the spec). */
export const MIN_CONFIRMATIONS: Record<NetworkName, number> = { Solana: 10, Ethereum: 12, Polkadot: 1 };

/** Block time used to derive `confirmations` from the time since broadcast. */
export const BLOCK_TIME_MS: Record<NetworkName, number> = { Solana: 400, Ethereum: 12_000, Polkadot: 6_000 };

/** Lamports a stake account keeps to be rent-exempt (a 200-byte stake account). */
export const SOLANA_RENT_EXEMPT_RESERVE = 2_282_880n;

/** Yearly reward rate of Solana stakes, in basis points. */
export const SOLANA_REWARD_BPS = 700n;

export const POLKADOT_UNBONDING_MS = 28 * DAY_MS;

/** What a beacon-chain validator takes, so what every staking deposit is a whole multiple of: 32 ETH in wei. */
export const ETHEREUM_DEPOSIT_WEI = 32n * 10n ** 18n;

/** Time from an Ethereum staking deposit to an active validator. */
export const ETHEREUM_ACTIVATION_MS = DAY_MS;

/** Yearly reward rate of Ethereum staking positions, in basis points. */
export const ETHEREUM_REWARD_BPS = 350n;

/** A request not approved 7 days after its creation expires. */
export const REQUEST_LIFETIME_MS = 7 * DAY_MS;

export const YEAR_MS = 365 * DAY_MS;

/** Polkadot's genesis block (2020-05-26 15:36:18 UTC): block heights count 6-second blocks from it. */
export const POLKADOT_GENESIS_MS = Date.UTC(2020, 4, 26, 15, 36, 18);
