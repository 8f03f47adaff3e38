import * as vscode from "vscode";
import type { ConnectionState } from "../../connection/connection-state.js";
import type { Services } from "../../services.js";
import { findingMessage } from "@custody/shared";
import { notify } from "../../output/notify.js";
import { translate } from "../../output/translate.js";

/** Tells the person how a connection attempt ended, in a notification and the output channel. */
export function reportConnection(services: Services, state: ConnectionState): void {
  if (state.kind === "connected") {
    const where = state.target.origin === "emulator" ? vscode.l10n.t("the built-in emulator (demo workspace)") : state.client.baseUrl;
    const { module_version, api_version } = state.health;
    const message = vscode.l10n.t("Custody: connected to {0} as {1} (module {2}, API {3}).", where, state.target.operator, module_version, api_version);
    services.output.info(message);
    for (const item of state.versionFindings.filter((finding) => finding.severity !== "info")) services.output.warn(findingMessage(item, translate));
    const warning = state.versionFindings.find((finding) => finding.severity === "warn");
    void (warning ? notify("warning", `${message} ${findingMessage(warning, translate)}`) : notify("info", message));
  } else if (state.kind === "failed") {
    services.output.warn(vscode.l10n.t("Connection to {0} as {1} failed: {2}", state.target.baseUrl, state.target.operator, state.message));
    void notify("error", vscode.l10n.t("Custody: could not connect to {0} as {1}: {2}", state.target.baseUrl, state.target.operator, state.message));
  }
}
