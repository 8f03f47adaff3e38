import type { Network } from "../../schemas/account.js";
import { addressProblem } from "../../schemas/address-format.js";
import { burnAddressName } from "./burn-address.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

export type AddressField = "recipient" | "validator";

/**
 * An address the write sends to, checked against the form of the account's network (Solana
 * base58 of 32 bytes, Polkadot SS58 with its checksum, Ethereum 0x hex) before a token is issued.
 * A known burn address (Ethereum's zero address, Solana's System Program...) blocks too.
 * Codes: RECIPIENT_ADDRESS_OK | _INVALID | _BURN_ADDRESS, VALIDATOR_ADDRESS_OK | _INVALID | _BURN_ADDRESS.
 */
export function checkAddressFormat(field: AddressField, network: Network, address: string): Finding {
  const code = `${field.toUpperCase()}_ADDRESS`;
  const problem = addressProblem(network, address);
  if (problem !== undefined) return finding("block", `${code}_INVALID`, localText("{0}: {1}", field, problem), { [field]: address, network });
  const burn = burnAddressName(network, address);
  if (burn !== undefined) {
    return finding("block", `${code}_BURN_ADDRESS`, localText("{0}: {1} is {2}, which no one controls: whatever is sent there is lost", field, address, burn), {
      [field]: address,
      network,
    });
  }
  return finding("info", `${code}_OK`, localText("{0} is a well-formed {1} address", field, network), { [field]: address, network });
}
