import * as vscode from "vscode";
import type { EthereumStakeStatus, SolanaStakeState } from "@custody/shared";

function icon(id: string, color?: string): vscode.ThemeIcon {
  return color === undefined ? new vscode.ThemeIcon(id) : new vscode.ThemeIcon(id, new vscode.ThemeColor(color));
}

/** A codicon per transaction status; unknown statuses get a neutral one. */
export function transactionStatusIcon(status: string): vscode.ThemeIcon {
  switch (status) {
    case "PENDING_APPROVAL":
      return icon("watch", "charts.yellow");
    case "APPROVED":
      return icon("pass", "charts.blue");
    case "SIGNED":
      return icon("key", "charts.blue");
    case "SUBMITTED":
      return icon("pass-filled", "charts.green");
    case "REJECTED":
      return icon("circle-slash", "charts.red");
    case "EXPIRED":
      return icon("history", "disabledForeground");
    case "FAILED":
      return icon("error", "charts.red");
    default:
      return icon("question");
  }
}

export function solanaStakeIcon(state: SolanaStakeState): vscode.ThemeIcon {
  switch (state) {
    case "activating":
      return icon("arrow-circle-up", "charts.yellow");
    case "activated":
      return icon("pass-filled", "charts.green");
    case "deactivating":
      return icon("arrow-circle-down", "charts.orange");
    case "deactivated":
      return icon("circle-large-outline", "disabledForeground");
  }
}

export function ethereumStakeIcon(status: EthereumStakeStatus): vscode.ThemeIcon {
  switch (status) {
    case "PENDING":
      return icon("watch", "charts.yellow");
    case "ACTIVE":
      return icon("pass-filled", "charts.green");
    case "EXITING":
      return icon("arrow-circle-down", "charts.orange");
    case "EXITED":
      return icon("circle-large-outline", "disabledForeground");
  }
}

export function networkIcon(network: string): vscode.ThemeIcon {
  switch (network) {
    case "Solana":
      return icon("symbol-event");
    case "Polkadot":
      return icon("circle-filled");
    case "Ethereum":
      return icon("symbol-constant");
    default:
      return icon("globe");
  }
}
