import { REWARDS_DESTINATIONS } from "../../schemas/coin-fields-request.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

/** The destinations a SETPAYEE from this toolkit may choose without a warning: the spec's two. */
const RECOMMENDED = ["Staked", "Stash"] as const;

function allowed(): string {
  return `${RECOMMENDED.join(" or ")} (also Controller, deprecated, and None, which forfeits the rewards)`;
}

/**
 * What a SETPAYEE destination means before it is asked for: Staked and Stash (the spec's values)
 * pass; Controller warns (deprecated on chain: controller accounts were retired); None warns (no
 * rewards are paid); Account blocks (it pays to another account, which the API has no field to
 * name); anything else blocks, naming the destinations allowed. Checked on top of the balance and
 * change rules of checkPolkadotOperation, which the service applies too.
 * Codes: POLKADOT_PAYEE_DESTINATION_OK | POLKADOT_PAYEE_CONTROLLER_DEPRECATED | POLKADOT_PAYEE_NONE_FORFEITS_REWARDS |
 * POLKADOT_PAYEE_ACCOUNT_UNSUPPORTED | POLKADOT_PAYEE_UNKNOWN.
 */
export function checkRewardsDestination(payee: string): Finding {
  const facts = { payee };
  switch (payee) {
    case "Staked":
    case "Stash":
      return finding(
        "info",
        "POLKADOT_PAYEE_DESTINATION_OK",
        localText(
          'payee "{0}" is a rewards destination of the spec ({1})',
          payee,
          payee === "Staked" ? "rewards are bonded" : "rewards are paid to the stash account",
        ),
        facts,
      );
    case "Controller":
      return finding(
        "warn",
        "POLKADOT_PAYEE_CONTROLLER_DEPRECATED",
        localText(
          'payee "Controller" is deprecated on chain: Polkadot retired controller accounts, so rewards may not ' + "go where intended; prefer Staked or Stash",
        ),
        facts,
      );
    case "None":
      return finding(
        "warn",
        "POLKADOT_PAYEE_NONE_FORFEITS_REWARDS",
        localText('payee "None": staking rewards are not paid at all from then on (forfeited); choose Staked or Stash to receive them'),
        facts,
      );
    case "Account":
      return finding(
        "block",
        "POLKADOT_PAYEE_ACCOUNT_UNSUPPORTED",
        localText('payee "Account" pays the rewards to another account, and the API has no field to name that account: choose {0}', allowed()),
        facts,
      );
  }
  const folded = REWARDS_DESTINATIONS.find((name) => name.toLowerCase() === payee.trim().toLowerCase());
  const hint = folded === undefined ? "" : `; did you mean "${folded}"? (spelled so)`;
  return finding(
    "block",
    "POLKADOT_PAYEE_UNKNOWN",
    localText("payee {0} is not a rewards destination: must be {1}{2}", JSON.stringify(payee), allowed(), hint),
    facts,
  );
}
