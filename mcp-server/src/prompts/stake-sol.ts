import { boundedText, INPUT_LIMITS } from "@custody/shared";
import type { McpServer } from "@modelcontextprotocol/server";
import { strictInput } from "../tools/strict-input.js";
import { quoted, userPrompt } from "./prompt-message.js";

/** Built once per process: a 2026-07-28 request builds a server, not its prompts' schemas. */
const STAKE_SOL_ARGS = strictInput("stake_sol", {
  account: boundedText(INPUT_LIMITS.account_name).describe("Account id or name"),
  amount: boundedText(INPUT_LIMITS.amount).describe('Amount in SOL, e.g. "10"'),
  validator: boundedText(INPUT_LIMITS.address).describe("Validator vote address"),
});

export function registerStakeSolPrompt(server: McpServer): void {
  server.registerPrompt(
    "stake_sol",
    {
      title: "Stake SOL",
      description: "Stake SOL from a Solana account with a validator, with a dry run and explicit confirmation.",
      argsSchema: STAKE_SOL_ARGS,
    },
    ({ account, amount, validator }) =>
      userPrompt(
        "Stake SOL safely",
        [
          `I want to stake ${quoted(amount)} SOL from account ${quoted(account)} with validator ${quoted(validator)}.`,
          "1. Call get_account to check it is a Solana account and see its available balance (both units).",
          "2. Call solana_create_stake without confirmation_token (a dry run; nothing is sent) with unit SOL.",
          "3. Show me the exact request, every check that is not info, the amounts in SOL and lamports, the " +
            "rent-exempt reserve and what governance will do. If it is blocked, explain why and stop.",
          "4. Only when I say yes, call solana_create_stake again with the same arguments and the confirmation_token.",
          "5. Report the transaction id and status; if it is pending approval, say who must approve (get_request_status).",
        ].join("\n"),
      ),
  );
}
