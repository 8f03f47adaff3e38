import type { SolanaEpochs } from "../../networks/solana-epochs.js";

/** What broadcasting needs beyond the commit: the Solana epoch schedule. */
export interface BroadcastEnv {
  epochs: SolanaEpochs;
}
