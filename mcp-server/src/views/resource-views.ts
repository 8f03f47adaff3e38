// What the resources answer with, loaded with their first read (one chunk of the bundle): a start builds none of it.
export { SolanaEpochClock } from "@custody/shared";
export { accountView } from "./account-view.js";
export { solanaStakeView } from "./stake-view.js";
export { transactionView } from "./transaction-view.js";
export { creatorNames } from "./creator-view.js";
export { workspaceView } from "./workspace-view.js";
