import type { McpServer } from "@modelcontextprotocol/server";
import { registerReviewPendingApprovalsPrompt } from "./review-pending-approvals.js";
import { registerStakeSolPrompt } from "./stake-sol.js";
import { registerUnbondDotSafelyPrompt } from "./unbond-dot-safely.js";

export function registerPrompts(server: McpServer): void {
  registerStakeSolPrompt(server);
  registerUnbondDotSafelyPrompt(server);
  registerReviewPendingApprovalsPrompt(server);
}
