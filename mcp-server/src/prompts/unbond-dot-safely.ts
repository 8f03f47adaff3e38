import { boundedText, INPUT_LIMITS } from "@custody/shared";
import type { McpServer } from "@modelcontextprotocol/server";
import { strictInput } from "../tools/strict-input.js";
import { quoted, userPrompt } from "./prompt-message.js";

/** Built once per process: a 2026-07-28 request builds a server, not its prompts' schemas. */
const UNBOND_DOT_ARGS = strictInput("unbond_dot_safely", {
  account: boundedText(INPUT_LIMITS.account_name).describe("Account id or name"),
  amount: boundedText(INPUT_LIMITS.amount).describe('Amount in DOT, e.g. "5"'),
});

export function registerUnbondDotSafelyPrompt(server: McpServer): void {
  server.registerPrompt(
    "unbond_dot_safely",
    {
      title: "Unbond DOT safely",
      description: "Unbond DOT from a Polkadot account after checking the bonded balance, with a dry run and explicit confirmation.",
      argsSchema: UNBOND_DOT_ARGS,
    },
    ({ account, amount }) =>
      userPrompt(
        "Unbond DOT safely",
        [
          `I want to unbond ${quoted(amount)} DOT on account ${quoted(account)}.`,
          "1. Call get_account_balance: show bonded, unbonding (with the dates each chunk unlocks), unbonded " +
            "and available, in DOT and planck. The amount must not exceed the bonded balance.",
          "2. Remind me that unbonded funds stay locked for 28 days before polkadot_withdraw_unbonded can " +
            "move them to available, and that polkadot_rebond can undo it meanwhile.",
          "3. Call polkadot_unbond without confirmation_token (a dry run; nothing is sent) with unit DOT, and " +
            "show me the request (recipient empty, speed CUSTOM, max_fees 0), bonded before and after, the " +
            "checks and the governance forecast; if I set a condition on what stays bonded, check it against " +
            "the after-balance. If it is blocked, explain why and stop.",
          "4. Only when I say yes, call polkadot_unbond again with the same arguments and the confirmation_token, then report the transaction.",
        ].join("\n"),
      ),
  );
}
