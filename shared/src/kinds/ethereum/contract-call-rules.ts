import { decodeDepositCall, DEPOSIT_SELECTOR, withdrawalAddress } from "./beacon-deposit-call.js";
import { sameAddress } from "../../schemas/address-format.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

export interface ContractCallInput {
  /** The contract the call pays (the transaction's recipient). */
  contract: string;
  /** coin_fields.contract_interaction.contract_data. */
  contractData: string;
  /** The whitelist of the account's smart-contract rule; undefined when the account reports none. */
  whitelist: string[] | undefined;
  /** The local policy's allowed_contracts, when set. */
  allowedContracts: string[] | undefined;
  /** The paying account's own address: a deposit's withdrawals may always go back to it. */
  accountAddress: string;
  /** The local policy's allowed_recipients, when set: the other addresses withdrawals may go to. */
  allowedRecipients: string[] | undefined;
}

/**
 * What the guard lets a contract call pay, whoever created it (an ethereum_stake, or an approval
 * of someone else's contract call): a contract something allows, and one deposit's call data.
 */
export function checkContractCall(input: ContractCallInput): Finding[] {
  return [...checkContractAllowed(input), ...checkDepositCallData(input)];
}

/**
 * The contract must be allowed: by the local policy's allowed_contracts, or else by the account's
 * smart-contract whitelist. A non-empty whitelist that does not list it blocks either way (the
 * service refuses it); an empty or unknown one allows nothing by itself.
 */
/** What allows contracts besides the rule: "the local policy's allowed_contracts: 0x…" or that it names none. */
function policyContracts(allowedContracts: string[] | undefined): string {
  return allowedContracts === undefined || allowedContracts.length === 0
    ? "the local policy names no allowed_contracts"
    : `the local policy's allowed_contracts: ${allowedContracts.join(", ")}`;
}

/** Where a staking contract comes from, said with every refusal of one. */
const CONTRACT_GUIDANCE =
  "stake through the staking provider's deposit contract the account's smart-contract rule whitelists (an administrator adds one to it)";

function checkContractAllowed({ contract, whitelist, allowedContracts }: ContractCallInput): Finding[] {
  const facts = { recipient: contract, ...(allowedContracts === undefined ? {} : { allowed_contracts: allowedContracts.join(",") }) };
  const byPolicy = allowedContracts?.some((entry) => sameAddress("Ethereum", entry, contract)) === true;
  if (whitelist === undefined || whitelist.length === 0) {
    const which = whitelist === undefined ? "the account reports no smart-contract whitelist" : "the smart-contract rule's whitelist is empty";
    if (byPolicy)
      return [
        finding("info", "ETHEREUM_STAKE_CONTRACT_ALLOWED_BY_POLICY", localText("{0}; the local policy's allowed_contracts names {1}", which, contract), facts),
      ];
    return [
      finding(
        "block",
        whitelist === undefined ? "ETHEREUM_STAKE_WHITELIST_UNKNOWN" : "ETHEREUM_STAKE_WHITELIST_EMPTY",
        localText(
          "{0} and the local policy's allowed_contracts does not name {1} ({2}): nothing allows this contract " +
            "to be paid; {3}, or name it in allowed_contracts",
          which,
          contract,
          policyContracts(allowedContracts),
          CONTRACT_GUIDANCE,
        ),
        facts,
      ),
    ];
  }
  const listFacts = { ...facts, whitelist: whitelist.join(",") };
  if (!whitelist.some((entry) => sameAddress("Ethereum", entry.trim(), contract))) {
    const listed = `it holds ${whitelist.join(", ")}; ${policyContracts(allowedContracts)}`;
    return [
      finding(
        "block",
        "ETHEREUM_STAKE_RECIPIENT_NOT_WHITELISTED",
        localText("recipient {0} is not on the smart-contract rule's whitelist ({1}): {2}", contract, listed, CONTRACT_GUIDANCE),
        listFacts,
      ),
    ];
  }
  return [finding("info", "ETHEREUM_STAKE_WHITELISTED_OK", localText("recipient {0} is on the smart-contract rule's whitelist", contract), listFacts)];
}

const FIELD = "coin_fields.contract_interaction.contract_data";

/** Where deposit data comes from, said with every refusal of it: the guard reads a deposit, it does not make one. */
const DEPOSIT_DATA_SOURCE =
  "the deposit data (validator pubkey, withdrawal_credentials, signature, deposit_data_root) comes from the " +
  "staking provider, which generates it for a validator it runs: ask it (its API or console) for a deposit of 32 " +
  "ETH whose withdrawal address is the account's own, then pass it as contract_data";

/**
 * The call data must be one deposit (selector 0x22895118, canonical ABI encoding, 420 bytes) whose
 * arguments are not zero-filled: any other call can pay anyone its arguments name, which the guard
 * cannot show, and a zero key, credential, signature or root is no validator's deposit. Its
 * withdrawal credentials decide who gets the 32 ETH back, so they are checked too.
 */
function checkDepositCallData(input: ContractCallInput): Finding[] {
  const { contractData } = input;
  const decoded = decodeDepositCall(contractData);
  if ("problem" in decoded) {
    return [
      finding(
        "block",
        "ETHEREUM_STAKE_CALL_DATA_NOT_DEPOSIT",
        localText(
          "{0} {1}: it must be one call of the beacon deposit contract's deposit(bytes,bytes,bytes,bytes32) " +
            "(selector 0x{2}), the only call the guard can read; {3}",
          FIELD,
          decoded.problem,
          DEPOSIT_SELECTOR,
          DEPOSIT_DATA_SOURCE,
        ),
        { selector: contractData.replace(/^0x/, "").slice(0, 8) },
      ),
    ];
  }
  const zero = Object.entries(decoded.parts)
    .filter(([, hex]) => /^0*$/.test(hex))
    .map(([name]) => name);
  if (zero.length > 0) {
    return [
      finding(
        "block",
        "ETHEREUM_STAKE_CALL_DATA_ZERO_FILLED",
        localText(
          "{0} is a deposit whose {1} {2} all zero bytes: no validator's deposit; {3}",
          FIELD,
          zero.join(", "),
          zero.length === 1 ? "is" : "are",
          DEPOSIT_DATA_SOURCE,
        ),
        { zero_filled: zero.join(",") },
      ),
    ];
  }
  return [
    finding("info", "ETHEREUM_STAKE_CALL_DATA_OK", localText("{0} is one deposit for validator key 0x{1}", FIELD, decoded.parts.pubkey), {
      pubkey: `0x${decoded.parts.pubkey}`,
    }),
    checkWithdrawalCredentials(decoded.parts.withdrawal_credentials, input),
  ];
}

/**
 * The deposit's withdrawal credentials must name an execution address (0x01 or 0x02, eleven zero
 * bytes, the address) that is the paying account's own or on the policy's allowed_recipients:
 * whoever they name receives the stake and its rewards back.
 */
function checkWithdrawalCredentials(credentials: string, { accountAddress, allowedRecipients }: ContractCallInput): Finding {
  const field = `the withdrawal_credentials in ${FIELD}`;
  const withdrawal = withdrawalAddress(credentials);
  if ("problem" in withdrawal) {
    return finding(
      "block",
      "ETHEREUM_STAKE_WITHDRAWAL_CREDENTIALS_UNREADABLE",
      localText("{0} (0x{1}) {2}: the guard accepts only 0x01 or 0x02 credentials naming an address it can check", field, credentials, withdrawal.problem),
      { withdrawal_credentials: `0x${credentials}` },
    );
  }
  const { address } = withdrawal;
  const facts = { withdrawal_address: address };
  if (sameAddress("Ethereum", accountAddress, address))
    return finding(
      "info",
      "ETHEREUM_STAKE_WITHDRAWALS_TO_ACCOUNT",
      localText("{0} send withdrawals back to the account's own address {1}", field, address),
      facts,
    );
  if (allowedRecipients?.some((entry) => sameAddress("Ethereum", entry, address)) === true) {
    return finding(
      "info",
      "ETHEREUM_STAKE_WITHDRAWALS_TO_ALLOWED_RECIPIENT",
      localText("{0} send withdrawals to {1}, on the local policy's allowed_recipients", field, address),
      facts,
    );
  }
  return finding(
    "block",
    "ETHEREUM_STAKE_WITHDRAWALS_NOT_ALLOWED",
    localText(
      "{0} send the deposit's withdrawals (the 32 ETH and its rewards) to {1}, which is neither the " +
        "account's own address ({2}) nor on the local policy's allowed_recipients; ask the staking provider " +
        "for deposit data withdrawing to {2}",
      field,
      address,
      accountAddress,
    ),
    facts,
  );
}
