import { copyAddress } from "./account/copy-address.js";
import { syncAccount } from "./account/sync-account.js";
import type { CommandDefinition } from "./command-definition.js";
import { copyId } from "./common/copy-id.js";
import { showJson } from "./common/show-json.js";
import { checkHealth } from "./connection/check-health.js";
import { connect } from "./connection/connect.js";
import { disconnect } from "./connection/disconnect.js";
import { setAccessToken } from "./connection/set-access-token.js";
import { showOutput } from "./connection/show-output.js";
import { startEmulator } from "./connection/start-emulator.js";
import { showMcpServerDefinition } from "./mcp/show-mcp-server-definition.js";
import { ethereumStake } from "./ethereum/stake.js";
import { registerOperator } from "./operator/register-operator.js";
import { bondExtra, rebond, unbond } from "./polkadot/amount-operation.js";
import { setPayee } from "./polkadot/set-payee.js";
import { withdrawUnbonded } from "./polkadot/withdraw-unbonded.js";
import { createStake } from "./solana/create-stake.js";
import { deactivateStake } from "./solana/deactivate-stake.js";
import { delegateStake } from "./solana/delegate-stake.js";
import { splitDeactivateStake, splitStake } from "./solana/split-stake.js";
import { withdrawStake } from "./solana/withdraw-stake.js";
import { approveTransaction } from "./transaction/approve-transaction.js";
import { createTransaction } from "./transaction/create-transaction.js";
import { searchTransactions } from "./transaction/search-transactions.js";
import { decideWaiting } from "./views/decide-waiting.js";
import { loadMore } from "./views/load-more.js";
import { refreshAccounts, refreshAll, refreshStakes, refreshTransactions } from "./views/refresh.js";

/** Every command the manifest contributes, in one list (a unit test keeps the two in step). */
export const ALL_COMMANDS: readonly CommandDefinition[] = [
  connect,
  startEmulator,
  disconnect,
  refreshAll,
  refreshAccounts,
  refreshStakes,
  refreshTransactions,
  checkHealth,
  setAccessToken,
  showOutput,
  showMcpServerDefinition,
  syncAccount,
  copyAddress,
  copyId,
  showJson,
  searchTransactions,
  createTransaction,
  approveTransaction,
  createStake,
  deactivateStake,
  withdrawStake,
  delegateStake,
  splitStake,
  splitDeactivateStake,
  bondExtra,
  unbond,
  rebond,
  withdrawUnbonded,
  setPayee,
  ethereumStake,
  registerOperator,
  loadMore,
  decideWaiting,
];
