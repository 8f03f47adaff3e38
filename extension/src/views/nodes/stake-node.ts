import * as vscode from "vscode";
import {
  displayUnit,
  epochOrNone,
  formatUnitsRounded,
  momentText,
  SolanaEpochClock,
  SolanaStakeAction,
  stakeAllows,
  stakeWithdrawableAt,
  timestampToDate,
  type Account,
  type Currency,
  type SolanaStake,
} from "@custody/shared";
import { bothAmounts, displayAmount } from "../amount-text.js";
import { accountNamed, labelText, markdownTooltip } from "../markdown-tooltip.js";
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

/** "1.5 SOL activating", "20.03 SOL deactivated, withdrawable": the stake's total (to the hundredth) and its state. */
export function stakeLabel(stake: SolanaStake, currency: Currency, withdrawableAt: Date | null): string {
  const state = stake.blockchain_state;
  const when =
    state.status === "deactivated"
      ? vscode.l10n.t(", withdrawable")
      : withdrawableAt === null
        ? ""
        : vscode.l10n.t(", withdrawable from about {0}", momentText(withdrawableAt));
  return `${formatUnitsRounded(state.total_balance, currency, 2)} ${displayUnit(currency).code} ${state.status}${when}`;
}

/** An account's stakes as nodes, each dated by the epochs the account's stakes tell and the service's now. */
export function stakeNodes(stakes: readonly SolanaStake[], account: Account, currency: Currency, now: Date, showAccount: boolean): StakeNode[] {
  const clock = SolanaEpochClock.fromStakes(stakes, now);
  return stakes.map((stake) => new StakeNode(stake, account, currency, showAccount, stakeWithdrawableAt(stake, clock)));
}

/** A Solana stake: total and state, exact amounts and validator; its context menu offers what its actions allow. */
export class StakeNode extends TreeNode {
  override readonly target: NodeTarget;

  constructor(
    readonly stake: SolanaStake,
    readonly account: Account,
    readonly currency: Currency,
    private readonly showAccount: boolean,
    private readonly withdrawableAt: Date | null = null,
  ) {
    super();
    this.target = { kind: "solana_stake", stake, account, currency };
  }

  treeItem(): vscode.TreeItem {
    const { stake, currency } = this;
    const state = stake.blockchain_state;
    const item = new vscode.TreeItem(stakeLabel(stake, currency, this.withdrawableAt), vscode.TreeItemCollapsibleState.None);
    const parts = [
      `${displayAmount(state.total_balance, currency)} (active ${displayAmount(state.active_balance, currency)})`,
      `validator ${shortAddress(state.validator_address)}`,
    ];
    if (this.showAccount) parts.unshift(labelText(this.account.name, 40));
    item.description = parts.join(" · ");
    item.iconPath = solanaStakeIcon(state.status);
    // ":deactivate:split:" lets the manifest's menus match one allowed action exactly.
    item.contextValue = `solanaStake:${allowedStakeActions(stake).join(":")}:`;
    item.tooltip = markdownTooltip(vscode.l10n.t("Solana stake {0}", stake.uid), [
      [vscode.l10n.t("account"), accountNamed(this.account.name, this.account.id)],
      [vscode.l10n.t("status"), vscode.l10n.t("{0} (record {1})", state.status, stake.status)],
      [vscode.l10n.t("active balance"), bothAmounts(state.active_balance, currency)],
      [vscode.l10n.t("inactive balance"), bothAmounts(state.inactive_balance, currency)],
      [vscode.l10n.t("total balance"), bothAmounts(state.total_balance, currency)],
      [vscode.l10n.t("rent-exempt reserve"), bothAmounts(state.rent_exempt_reserve, currency)],
      [vscode.l10n.t("total reward"), bothAmounts(stake.total_reward, currency)],
      [vscode.l10n.t("validator"), state.validator_address],
      [vscode.l10n.t("stake account"), state.pub_key],
      [vscode.l10n.t("activation epoch"), epochText(state.activation_epoch)],
      [vscode.l10n.t("deactivation epoch"), epochText(state.deactivation_epoch) ?? vscode.l10n.t("not deactivated")],
      [
        vscode.l10n.t("withdrawable"),
        state.status === "deactivated"
          ? vscode.l10n.t("now")
          : this.withdrawableAt === null
            ? vscode.l10n.t("after a deactivation")
            : vscode.l10n.t("from about {0}", momentText(this.withdrawableAt)),
      ],
      [vscode.l10n.t("created"), timestampToDate(stake.created_on).toISOString()],
      [vscode.l10n.t("actions allowed now"), allowedStakeActions(stake).join(", ") || vscode.l10n.t("none")],
    ]);
    return item;
  }
}
