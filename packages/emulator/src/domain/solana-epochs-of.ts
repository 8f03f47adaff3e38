import { SolanaEpochs } from "../networks/solana-epochs.js";
import type { MetaRow } from "../store/state-types.js";

export function solanaEpochsOf(meta: MetaRow, epochSeconds: number): SolanaEpochs {
  return new SolanaEpochs(meta.genesis_ms, epochSeconds * 1000);
}
