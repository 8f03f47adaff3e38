/** Ethereum staking providers the emulated network knows, by deposit contract address (lower case). */
export const ETHEREUM_STAKING_PROVIDERS: ReadonlyMap<string, string> = new Map([
  ["0x00000000219ab540356cbb839cbe05303d7705fa", "Beacon deposit contract"],
  ["0x1e68238ce926dec62b3fbc99ab06eb1d85ce0270", "Kiln"],
  ["0x39dc6a99209b5e6b81dc8540c86ff10981ebda29", "Figment"],
]);

export function stakingProviderOf(contractAddress: string): string | null {
  return ETHEREUM_STAKING_PROVIDERS.get(contractAddress.toLowerCase()) ?? null;
}
