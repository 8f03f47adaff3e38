import type { Network, Person } from "@custody/shared";
import type { CompleteResult, McpServer } from "@modelcontextprotocol/server";
import { ACCOUNT_TEMPLATE } from "../resources/account-resource.js";
import { mayUse } from "../resources/register-resources.js";
import { idOfText } from "../resources/resource-contents.js";
import { ETHEREUM_STAKES_TEMPLATE, SOLANA_STAKE_TEMPLATE, SOLANA_STAKES_TEMPLATE } from "../resources/stake-resources.js";
import type { DeferredContext, ServerContext } from "../server/server-context.js";
import { completionOf, NO_COMPLETION } from "./completion-result.js";
import { accountCandidates, stakeCandidates, validatorCandidates } from "./workspace-candidates.js";

/** One argument's completion: what was typed, the other arguments already given. */
type Completer = (ctx: ServerContext, typed: string, given: Record<string, string | undefined>, signal: AbortSignal) => Promise<CompleteResult>;

function accounts(spec: { network?: Network; as: "reference" | "id" }): Completer {
  return async (ctx, typed, _given, signal) => {
    const { candidates, more } = await accountCandidates(ctx, spec, signal);
    return completionOf(candidates, typed, more);
  };
}

function ownEntry<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * completion/complete for the prompts' account and validator arguments and the resource templates'
 * account_id and stake_uid, from the workspace as the session's person may read it (the policy's
 * list_accounts and list_solana_stakes). A prompt or template with nothing to complete, or unknown
 * here, is answered with no values rather than an error: a completion is a hint.
 */
export function registerCompletions(server: McpServer, session: DeferredContext, person: Person | null): void {
  const may = mayUse(session.policy, person);
  const mayList = may("list_accounts");
  const mayListStakes = may("list_solana_stakes");
  const prompts: Record<string, Record<string, Completer>> = {
    stake_sol: {
      ...(mayList ? { account: accounts({ network: "Solana", as: "reference" }) } : {}),
      validator: async (ctx, typed, given, signal) =>
        completionOf(await validatorCandidates(ctx, mayList ? given.account : undefined, mayListStakes, signal), typed),
    },
    unbond_dot_safely: mayList ? { account: accounts({ network: "Polkadot", as: "reference" }) } : {},
    review_pending_approvals: mayList ? { account: accounts({ as: "reference" }) } : {},
  };
  // The account_id as resources/read takes it: a text it would refuse names no account to offer stakes of.
  const stakeUids: Completer = async (ctx, typed, given, signal) => {
    const accountId = idOfText(given.account_id);
    return accountId === null ? NO_COMPLETION : completionOf(await stakeCandidates(ctx, accountId, signal), typed);
  };
  const templates: Record<string, Record<string, Completer>> = mayList
    ? {
        [ACCOUNT_TEMPLATE]: may("get_account") ? { account_id: accounts({ as: "id" }) } : {},
        [SOLANA_STAKES_TEMPLATE]: mayListStakes ? { account_id: accounts({ network: "Solana", as: "id" }) } : {},
        [SOLANA_STAKE_TEMPLATE]:
          mayListStakes && may("get_solana_stake") ? { account_id: accounts({ network: "Solana", as: "id" }), stake_uid: stakeUids } : {},
        [ETHEREUM_STAKES_TEMPLATE]: may("list_ethereum_stakes") ? { account_id: accounts({ network: "Ethereum", as: "id" }) } : {},
      }
    : {};
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler("completion/complete", async (request, extra) => {
    const { ref, argument, context } = request.params;
    // Own keys only: a name such as "constructor" names no prompt.
    const completers = ref.type === "ref/prompt" ? ownEntry(prompts, ref.name) : ownEntry(templates, ref.uri);
    const complete = completers === undefined ? undefined : ownEntry(completers, argument.name);
    if (complete === undefined) return NO_COMPLETION;
    return complete(await session.load(), argument.value, context?.arguments ?? {}, extra.mcpReq.signal);
  });
}
