import { describe, it } from "vitest";
import { checkRewardsDestination } from "../../../src/index.js";
import { expectFindings, type Expected } from "../kit/finding-table.js";

describe("checkRewardsDestination", () => {
  it.each<[string, string, Expected, string[]]>([
    ["Staked, the spec's", "Staked", [["POLKADOT_PAYEE_DESTINATION_OK", "info"]], []],
    ["Stash, the spec's", "Stash", [["POLKADOT_PAYEE_DESTINATION_OK", "info"]], []],
    ["Controller, deprecated on chain", "Controller", [["POLKADOT_PAYEE_CONTROLLER_DEPRECATED", "warn"]], ["payee", "Controller", "deprecated"]],
    ["None: rewards are not paid", "None", [["POLKADOT_PAYEE_NONE_FORFEITS_REWARDS", "warn"]], ["payee", "None", "not paid"]],
    [
      "Account: its target account has no field",
      "Account",
      [["POLKADOT_PAYEE_ACCOUNT_UNSUPPORTED", "block"]],
      ["payee", "Account", "no field", "Staked or Stash"],
    ],
    ["an unknown name", "Bogus", [["POLKADOT_PAYEE_UNKNOWN", "block"]], ["payee", '"Bogus"', "Staked or Stash", "Controller", "None"]],
    ["a known name in another case", "staked", [["POLKADOT_PAYEE_UNKNOWN", "block"]], ["payee", 'did you mean "Staked"']],
    ["a known name with spaces", " Stash ", [["POLKADOT_PAYEE_UNKNOWN", "block"]], ['did you mean "Stash"']],
    ["empty", "", [["POLKADOT_PAYEE_UNKNOWN", "block"]], ["payee", '""']],
  ])("%s", (_name, payee, expected, fields) => {
    expectFindings([checkRewardsDestination(payee)], expected, fields);
  });
});
