import { join } from "node:path";
import * as vscode from "vscode";
import { AutoRefresh } from "./auto-refresh.js";
import { registerCommands } from "./commands/register-commands.js";
import { AccessTokenStore } from "./connection/access-token-store.js";
import { Connection } from "./connection/connection.js";
import type { ConnectionState } from "./connection/connection-state.js";
import { CONNECTION_SETTINGS, readConnectionSettings, SETTINGS_SECTION } from "./connection/connection-settings.js";
import { shownBaseUrl } from "./connection/settings-rules.js";
import { EmulatorSession } from "./connection/emulator-session.js";
import { auditLogLocation, auditLogNotice, ExtensionAudit } from "./guard/extension-audit.js";
import { WriteGuard } from "./guard/guarded-write.js";
import { WindowPrompter } from "./input/prompter.js";
import { CustodyMcpProvider, MCP_PROVIDER_ID } from "./mcp/mcp-server-provider.js";
import { OutputLog } from "./output/output-log.js";
import type { Services } from "./services.js";
import { StatusBar } from "./status-bar.js";
import { ScriptedPrompter } from "./testing/scripted-prompter.js";
import { createTestApi, type CustodyTestApi } from "./testing/test-api.js";
import { ViewRegistry } from "./views/view-registry.js";
import { WaitingProvider } from "./views/waiting-provider.js";
import { createWaitingView } from "./views/waiting-view.js";

export interface CustodyExtensionApi {
  /** Present only when VS Code runs the extension in Test mode (the test-electron suite). */
  testing?: CustodyTestApi;
}

function setContexts(state: ConnectionState): void {
  void vscode.commands.executeCommand("setContext", "custody.connected", state.kind === "connected");
  void vscode.commands.executeCommand("setContext", "custody.connecting", state.kind === "connecting");
  void vscode.commands.executeCommand("setContext", "custody.connectionFailed", state.kind === "failed");
}

/**
 * Activation does no network call and waits for none: it wires the parts, then connects in
 * the background when the user's settings name a workspace.
 */
export function activate(context: vscode.ExtensionContext): CustodyExtensionApi {
  const output = new OutputLog();
  const tokens = new AccessTokenStore(context.secrets);
  const connection = new Connection(tokens);
  const windowPrompter = new WindowPrompter();
  // A scripted prompter can answer the modal confirmation: it exists only in Test mode.
  const scripted = context.extensionMode === vscode.ExtensionMode.Test ? new ScriptedPrompter(windowPrompter) : undefined;
  const prompter = scripted ?? windowPrompter;
  const views = new ViewRegistry(connection, output);
  const statusBar = new StatusBar(connection);
  const audit = new ExtensionAudit(auditLogLocation(context.globalStorageUri.fsPath, readConnectionSettings().auditLog));
  output.info(auditLogNotice(audit.location));
  const emulator = new EmulatorSession((line) => output.info(`[emulator] ${line}`), join(context.globalStorageUri.fsPath, "emulator"));
  const refreshAll = () => {
    views.refreshAll();
    void statusBar.refresh();
  };
  const guard = new WriteGuard({ connection, prompter, output, audit, policySetting: () => readConnectionSettings().policyFile, afterWrite: refreshAll });
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? "0.0.0");
  const mcp = new CustodyMcpProvider(context.asAbsolutePath("dist/mcp/custody-mcp.js"), version, connection, audit.path);
  const waiting = new WaitingProvider(connection, () => audit.store(), output);
  const services: Services = { connection, output, prompter, guard, audit, views, waiting, tokens, emulator, mcp, refreshAll };
  const autoRefresh = new AutoRefresh(refreshAll);

  setContexts(connection.state);
  context.subscriptions.push(
    output,
    connection,
    views,
    waiting,
    createWaitingView(waiting),
    statusBar,
    emulator,
    mcp,
    autoRefresh,
    ...registerCommands(services),
    connection.onDidChange((state) => {
      setContexts(state);
      views.refreshAll();
      void waiting.read();
      if (state.kind === "connected") {
        autoRefresh.schedule(readConnectionSettings().refreshIntervalSeconds);
        guard.connected();
      } else autoRefresh.stop();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
      const settings = readConnectionSettings();
      if (connection.state.kind === "connected") autoRefresh.schedule(settings.refreshIntervalSeconds);
      // Only a change of what the connection is made of connects again: another setting does not retry a failed connection.
      if (!CONNECTION_SETTINGS.some((key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`))) return;
      const state = connection.state;
      const moved =
        state.kind !== "disconnected" &&
        state.target.origin === "settings" &&
        (state.target.baseUrl !== settings.baseUrl || state.target.operator !== settings.operator);
      if (moved && settings.baseUrl !== "" && settings.operator !== "") {
        output.info(vscode.l10n.t("Settings changed: connecting to {0} as {1}", shownBaseUrl(settings.baseUrl), settings.operator));
        void connection.connect({ baseUrl: settings.baseUrl, operator: settings.operator, origin: "settings" });
      }
    }),
  );

  if (typeof vscode.lm?.registerMcpServerDefinitionProvider === "function")
    context.subscriptions.push(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));

  const settings = readConnectionSettings();
  if (settings.baseUrl !== "" && settings.operator !== "") {
    void connection.connect({ baseUrl: settings.baseUrl, operator: settings.operator, origin: "settings" }).then((state) => {
      if (state.kind === "connected") output.info(vscode.l10n.t("Connected to {0} as {1}", state.client.baseUrl, state.target.operator));
      else if (state.kind === "failed")
        output.warn(vscode.l10n.t("Could not connect to {0} as {1}: {2}", state.target.baseUrl, settings.operator, state.message));
    });
  }

  return scripted ? { testing: createTestApi(scripted, views, connection) } : {};
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions, the built-in emulator included.
}
