/** Solana epochs on the simulated clock: epoch n starts at genesis + n × length. */
export class SolanaEpochs {
  constructor(
    readonly genesisMs: number,
    readonly lengthMs: number,
  ) {}

  epochAt(timeMs: number): number {
    return Math.floor((timeMs - this.genesisMs) / this.lengthMs);
  }

  startOf(epoch: number): number {
    return this.genesisMs + epoch * this.lengthMs;
  }
}
