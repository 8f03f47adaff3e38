import type { NetworkName } from "../store/state-types.js";

export type FeeOperation = "send" | "stake" | "contract" | "deploy" | "polkadot_staking";

const GWEI = 1_000_000_000n;
const ETHEREUM_GAS: Record<Exclude<FeeOperation, "polkadot_staking" | "stake">, bigint> = {
  send: 21_000n,
  contract: 150_000n,
  deploy: 1_500_000n,
};
const ETHEREUM_GAS_PRICE_GWEI: Record<string, bigint> = { SLOW: 8n, NORMAL: 12n, FAST: 20n, CUSTOM: 12n };
const SOLANA_FEE: Record<string, bigint> = { SLOW: 5_000n, NORMAL: 5_000n, FAST: 15_000n, CUSTOM: 5_000n };
const POLKADOT_FEE: Record<string, bigint> = { SLOW: 15_600_000n, NORMAL: 15_600_000n, FAST: 20_000_000n, CUSTOM: 15_600_000n };

/**
 * The fee the emulated network takes for an operation, in base units. Polkadot staking
 * operations are sent with max_fees "0" (Usage rules, point 2), so they are charged nothing.
 */
export function networkFee(network: NetworkName, speed: string, operation: FeeOperation): bigint {
  if (operation === "polkadot_staking") return 0n;
  switch (network) {
    case "Solana":
      return SOLANA_FEE[speed] ?? 5_000n;
    case "Polkadot":
      return POLKADOT_FEE[speed] ?? 15_600_000n;
    case "Ethereum": {
      const gas = operation === "stake" ? ETHEREUM_GAS.contract : ETHEREUM_GAS[operation];
      return gas * (ETHEREUM_GAS_PRICE_GWEI[speed] ?? 12n) * GWEI;
    }
  }
}

/** The max_fees to propose: the fee with 50 % headroom, rounded up. */
export function proposedMaxFees(fee: bigint): bigint {
  return (fee * 3n + 1n) / 2n;
}
