import { listedToolQuery, toolPermission, type Person, type Policy } from "@custody/shared";
import { decideWrite } from "./decide-write.js";
import { getAccount } from "./accounts/get-account.js";
import { getAccountBalance } from "./accounts/get-account-balance.js";
import { getHoldings } from "./accounts/get-holdings.js";
import { listAccounts } from "./accounts/list-accounts.js";
import { syncAccount } from "./accounts/sync-account.js";
import { ethereumStake } from "./ethereum/ethereum-stake.js";
import { listEthereumStakes } from "./ethereum/list-ethereum-stakes.js";
import { createOperator } from "./operators/create-operator.js";
import { registerOperator } from "./operators/register-operator.js";
import { polkadotBondExtra, polkadotRebond, polkadotUnbond } from "./polkadot/polkadot-amount-tools.js";
import { polkadotSetPayee } from "./polkadot/polkadot-set-payee.js";
import { polkadotWithdrawUnbonded } from "./polkadot/polkadot-withdraw-unbonded.js";
import { getSolanaStake } from "./solana/get-solana-stake.js";
import { listSolanaStakes } from "./solana/list-solana-stakes.js";
import { solanaCreateStake } from "./solana/solana-create-stake.js";
import {
  solanaDeactivateStake,
  solanaDelegateStake,
  solanaSplitDeactivateStake,
  solanaSplitStake,
  solanaWithdrawStake,
} from "./solana/solana-stake-actions.js";
import type { AnyTool } from "./tool-definition.js";
import { approveTransaction } from "./transactions/approve-transaction.js";
import { createTransaction } from "./transactions/create-transaction.js";
import { estimateFees } from "./transactions/estimate-fees.js";
import { getRequestStatus } from "./transactions/get-request-status.js";
import { getTransaction } from "./transactions/get-transaction.js";
import { getTransactionHistory } from "./transactions/get-transaction-history.js";
import { listActivity } from "./transactions/list-activity.js";
import { listPendingApprovals } from "./transactions/list-pending-approvals.js";
import { searchTransactions } from "./transactions/search-transactions.js";
import { getCurrency } from "./workspace/get-currency.js";
import { healthCheck } from "./workspace/health-check.js";
import { listTokens } from "./workspace/list-tokens.js";
import { listUsers } from "./workspace/list-users.js";

/** Every tool the server has, in the order tools/list shows them. */
export const ALL_TOOLS: readonly AnyTool[] = [
  healthCheck,
  listUsers,
  listAccounts,
  getAccount,
  getAccountBalance,
  getHoldings,
  syncAccount,
  getTransaction,
  getTransactionHistory,
  searchTransactions,
  listPendingApprovals,
  listActivity,
  getRequestStatus,
  estimateFees,
  getCurrency,
  listTokens,
  listSolanaStakes,
  getSolanaStake,
  listEthereumStakes,
  createOperator,
  registerOperator,
  createTransaction,
  approveTransaction,
  solanaCreateStake,
  solanaDeactivateStake,
  solanaWithdrawStake,
  solanaDelegateStake,
  solanaSplitStake,
  solanaSplitDeactivateStake,
  polkadotBondExtra,
  polkadotUnbond,
  polkadotRebond,
  polkadotWithdrawUnbonded,
  polkadotSetPayee,
  ethereumStake,
];

/** The tools only a view calls (the confirmation view's Confirm and Decline): listed to clients that show views, never in ALL_TOOLS. */
export const APP_TOOLS: readonly AnyTool[] = [decideWrite];

/**
 * The tools the local policy lets this server register (for a signed-in person: through their role): the one place where read-only mode,
 * toolsets and the allow and deny lists decide what a client can see. Handlers ask again.
 */
export function toolsFor(policy: Policy, person: Person | null = null): AnyTool[] {
  return ALL_TOOLS.filter((tool) => toolPermission(policy, listedToolQuery(tool), person).allowed);
}
