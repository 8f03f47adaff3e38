import type { ToolIdentity, WriteKind } from "@custody/shared";

/**
 * Each write under the name and toolset the MCP server gives it, so one policy file allows or
 * denies the same writes in both surfaces, and both audit logs name them alike.
 */
export function writeTool(kind: WriteKind): ToolIdentity {
  if (kind === "send") return { name: "create_transaction", toolset: "transactions", readOnly: false };
  if (kind === "approve_transaction") return { name: kind, toolset: "transactions", readOnly: false };
  if (kind.startsWith("solana_")) return { name: kind, toolset: "solana_staking", readOnly: false };
  if (kind.startsWith("polkadot_")) return { name: kind, toolset: "polkadot_staking", readOnly: false };
  return { name: kind, toolset: "ethereum_staking", readOnly: false };
}
