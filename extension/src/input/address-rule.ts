import {
  ANY_ADDRESS,
  ANY_ADDRESS_RULE_TEXT,
  ETHEREUM_ADDRESS_RULE_TEXT,
  isEthereumAddress,
  renderText,
  SOLANA_ADDRESS,
  SOLANA_ADDRESS_RULE_TEXT,
  type LocalText,
  type Network,
} from "@custody/shared";
import { translate } from "../output/translate.js";

/** The address format of a network, from shared's request rules. */
export function addressRule(network: Network | null): { valid: (text: string) => boolean; rule: LocalText } {
  switch (network) {
    case "Solana":
      return { valid: (text) => SOLANA_ADDRESS.test(text), rule: SOLANA_ADDRESS_RULE_TEXT };
    case "Ethereum":
      return { valid: isEthereumAddress, rule: ETHEREUM_ADDRESS_RULE_TEXT };
    default:
      return { valid: (text) => ANY_ADDRESS.test(text), rule: ANY_ADDRESS_RULE_TEXT };
  }
}

/** validateInput for an address field: "<field>: <rule>" until the text is valid, in the window's language. */
export function addressValidator(network: Network | null, field: string): (text: string) => string | undefined {
  const { valid, rule } = addressRule(network);
  return (text) => (valid(text.trim()) ? undefined : translate("{0}: {1}", field, renderText(rule, translate)));
}
