// What the first tool call needs and a start does not: the context builder (client, audit log,
// tokens), the tools, and the views the resources answer with (a resource read builds the context
// first, so it has loaded this module already). One module, imported on demand, so that the bundle splits into few chunk
// files: each file a start has to load costs it time.
export { buildContext } from "../server/build-context.js";
export { answerConfirmPage } from "../confirm-page/confirm-routes.js";
export { ALL_TOOLS } from "../tools/inventory.js";
export { SolanaEpochClock } from "@custody/shared";
export { accountView } from "../views/account-view.js";
export { solanaStakeView } from "../views/stake-view.js";
export { transactionView } from "../views/transaction-view.js";
export { workspaceView } from "../views/workspace-view.js";
