import type { Network } from "../schemas/account.js";
import { addressProblem } from "../schemas/address-format.js";
import { finding, type Finding } from "./finding.js";

export type AddressField = "recipient" | "validator";

/**
 * An address the write sends to, checked against the form of the account's network (Solana
 * base58 of 32 bytes, Polkadot SS58 with its checksum, Ethereum 0x hex) before a token is issued.
 * Codes: RECIPIENT_ADDRESS_OK | RECIPIENT_ADDRESS_INVALID, VALIDATOR_ADDRESS_OK | VALIDATOR_ADDRESS_INVALID.
 */
export function checkAddressFormat(field: AddressField, network: Network, address: string): Finding {
  const code = `${field.toUpperCase()}_ADDRESS`;
  const problem = addressProblem(network, address);
  return problem === undefined
    ? finding("info", `${code}_OK`, `${field} is a well-formed ${network} address`, { [field]: address, network })
    : finding("block", `${code}_INVALID`, `${field}: ${problem}`, { [field]: address, network });
}
