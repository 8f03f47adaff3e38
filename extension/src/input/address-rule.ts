import { ANY_ADDRESS, ANY_ADDRESS_RULE, ETHEREUM_ADDRESS, ETHEREUM_ADDRESS_RULE, SOLANA_ADDRESS, SOLANA_ADDRESS_RULE, type Network } from "@custody/shared";

/** The address format of a network, from shared's request rules. */
export function addressRule(network: Network | null): { pattern: RegExp; rule: string } {
  switch (network) {
    case "Solana":
      return { pattern: SOLANA_ADDRESS, rule: SOLANA_ADDRESS_RULE };
    case "Ethereum":
      return { pattern: ETHEREUM_ADDRESS, rule: ETHEREUM_ADDRESS_RULE };
    default:
      return { pattern: ANY_ADDRESS, rule: ANY_ADDRESS_RULE };
  }
}

/** validateInput for an address field: "<field>: <rule>" until the text matches. */
export function addressValidator(network: Network | null, field: string): (text: string) => string | undefined {
  const { pattern, rule } = addressRule(network);
  return (text) => (pattern.test(text.trim()) ? undefined : `${field}: ${rule}`);
}
