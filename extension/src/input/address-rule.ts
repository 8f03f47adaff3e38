import { ANY_ADDRESS, ANY_ADDRESS_RULE, ETHEREUM_ADDRESS_RULE, isEthereumAddress, SOLANA_ADDRESS, SOLANA_ADDRESS_RULE, type Network } from "@custody/shared";

/** The address format of a network, from shared's request rules. */
export function addressRule(network: Network | null): { valid: (text: string) => boolean; rule: string } {
  switch (network) {
    case "Solana":
      return { valid: (text) => SOLANA_ADDRESS.test(text), rule: SOLANA_ADDRESS_RULE };
    case "Ethereum":
      return { valid: isEthereumAddress, rule: ETHEREUM_ADDRESS_RULE };
    default:
      return { valid: (text) => ANY_ADDRESS.test(text), rule: ANY_ADDRESS_RULE };
  }
}

/** validateInput for an address field: "<field>: <rule>" until the text is valid. */
export function addressValidator(network: Network | null, field: string): (text: string) => string | undefined {
  const { valid, rule } = addressRule(network);
  return (text) => (valid(text.trim()) ? undefined : `${field}: ${rule}`);
}
