import * as vscode from "vscode";
import { epochOrNone, SolanaStakeAction, stakeAllows, timestampToDate, type Account, type Currency, type SolanaStake } from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { labelText, markdownTooltip } from "../markdown-tooltip.js";
import { solanaStakeIcon } from "../status-icons.js";
import { TreeNode, type NodeTarget } from "../tree-node.js";

/** The actions a stake lists now, by their last path segment (see docs/spec-decisions.md). */
export function allowedStakeActions(stake: Pick<SolanaStake, "actions">): SolanaStakeAction[] {
  return SolanaStakeAction.options.filter((action) => stakeAllows(stake, action));
}

/** The epoch as digits; undefined when it names none (Solana's u64::MAX, or null in older data). */
function epochText(epoch: bigint | null): string | undefined {
  const value = epochOrNone(epoch);
  return value === null ? undefined : value.toString();
}

/** "AbCd…WxYz" for a long address. */
export function shortAddress(address: string): string {
  const clean = labelText(address, 100);
  return clean.length > 14 ? `${clean.slice(0, 6)}…${clean.slice(-6)}` : clean;
}

/** A Solana stake: status, active balance and validator; its context menu offers what its actions allow. */
export class StakeNode extends TreeNode {
  override readonly target: NodeTarget;

  constructor(
    readonly stake: SolanaStake,
    readonly account: Account,
    readonly currency: Currency,
    private readonly showAccount: boolean,
  ) {
    super();
    this.target = { kind: "solana_stake", stake, account, currency };
  }

  treeItem(): vscode.TreeItem {
    const { stake, currency } = this;
    const state = stake.blockchain_state;
    const item = new vscode.TreeItem(`${displayAmount(state.active_balance, currency)} active`, vscode.TreeItemCollapsibleState.None);
    const parts = [state.status, `validator ${shortAddress(state.validator_address)}`];
    if (this.showAccount) parts.unshift(labelText(this.account.name, 40));
    item.description = parts.join(" · ");
    item.iconPath = solanaStakeIcon(state.status);
    // ":deactivate:split:" lets the manifest's menus match one allowed action exactly.
    item.contextValue = `solanaStake:${allowedStakeActions(stake).join(":")}:`;
    item.tooltip = markdownTooltip(`Solana stake ${stake.uid}`, [
      ["account", `${this.account.name} (id ${this.account.id})`],
      ["status", `${state.status} (record ${stake.status})`],
      ["active balance", bothAmounts(state.active_balance, currency)],
      ["inactive balance", bothAmounts(state.inactive_balance, currency)],
      ["total balance", bothAmounts(state.total_balance, currency)],
      ["rent-exempt reserve", bothAmounts(state.rent_exempt_reserve, currency)],
      ["total reward", bothAmounts(stake.total_reward, currency)],
      ["validator", state.validator_address],
      ["stake account", state.pub_key],
      ["activation epoch", epochText(state.activation_epoch)],
      ["deactivation epoch", epochText(state.deactivation_epoch) ?? "not deactivated"],
      ["created", timestampToDate(stake.created_on).toISOString()],
      ["actions allowed now", allowedStakeActions(stake).join(", ") || "none"],
    ]);
    return item;
  }
}
