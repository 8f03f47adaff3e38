import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import type { Connection } from "../connection/connection.js";
import type { ConnectionTarget } from "../connection/connection-state.js";
import { readConnectionSettings } from "../connection/connection-settings.js";
import { settingsProblem } from "../connection/settings-rules.js";
import { policyPath } from "../guard/policy-source.js";

export const MCP_PROVIDER_ID = "custody.mcp";

/** The connection the MCP server is given: the one the window is connected to (or tries), else the settings. */
function mcpTarget(connection: Connection): ConnectionTarget {
  const state = connection.state;
  // A connection refused on the settings' rules keeps only the address as it may be shown: the settings hold the one to give.
  if (state.kind !== "disconnected" && !(state.kind === "failed" && state.target.origin === "settings")) return state.target;
  const settings = readConnectionSettings();
  return { baseUrl: settings.baseUrl, operator: settings.operator, origin: "settings" };
}

/**
 * Why no MCP server is offered: settings the server would refuse as the window does. Its definition is shown (Show the MCP
 * Server Definition, VS Code's own views), and such an address may carry a secret in its user, password or query.
 */
export function mcpSettingsProblem(connection: Connection): string | undefined {
  const target = mcpTarget(connection);
  return target.origin === "settings" && target.baseUrl !== "" ? settingsProblem(target) : undefined;
}

/** The environment that gives the MCP server this window's connection: the one it is connected to, else the settings. */
export function mcpEnvironment(connection: Connection, auditLogPath: string): Record<string, string> {
  const settings = readConnectionSettings();
  const target = mcpTarget(connection);
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: "1" };
  const { baseUrl, operator } = target;
  // Without a base URL the MCP server starts its own emulator on the demo workspace (its embedded default).
  if (baseUrl !== "") env.CUSTODY_BASE_URL = baseUrl;
  if (operator !== "") env.CUSTODY_OPERATOR = operator;
  // One audit log for both surfaces (it takes several writers): the daily limits of the one policy
  // file then count the writes of both. The embedded demo keeps a log of its own.
  if (baseUrl !== "") env.CUSTODY_AUDIT_LOG = auditLogPath;
  // The built-in emulator serves only who holds its key: the file's path, never the key, goes in the environment.
  if (target.emulatorKey) env.CUSTODY_EMULATOR_KEY_FILE = target.emulatorKey.file;
  try {
    const policy = policyPath(settings.policyFile);
    if (policy !== undefined) env.CUSTODY_POLICY = policy;
  } catch {
    // A relative policy path is passed as is: the MCP server refuses it with its own message rather than run without the policy.
    env.CUSTODY_POLICY = settings.policyFile;
  }
  return env;
}

/**
 * Provides the project's MCP server to VS Code's agent mode: the bundle shipped in the
 * extension's dist/, run by VS Code's own runtime as Node, with the same connection settings.
 */
export class CustodyMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.#changed.event;
  readonly #subscriptions: vscode.Disposable[];

  constructor(
    private readonly bundlePath: string,
    private readonly version: string,
    private readonly connection: Connection,
    private readonly auditLogPath: string,
  ) {
    this.#subscriptions = [
      connection.onDidChange(() => this.#changed.fire()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("custody")) this.#changed.fire();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.#changed.fire()),
    ];
  }

  /**
   * None in Restricted Mode: an agent reading an untrusted folder must not hold the operator's writes (workspace-trust.ts).
   * None either with settings the server would refuse (mcpSettingsProblem).
   */
  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    if (!vscode.workspace.isTrusted || !existsSync(this.bundlePath) || mcpSettingsProblem(this.connection) !== undefined) return [];
    const env = mcpEnvironment(this.connection, this.auditLogPath);
    // The version changes with the connection, so VS Code restarts the server when it moves.
    const digest = createHash("sha256").update(JSON.stringify(env)).digest("hex").slice(0, 12);
    return [new vscode.McpStdioServerDefinition(vscode.l10n.t("Custody Workspace"), process.execPath, [this.bundlePath], env, `${this.version}+${digest}`)];
  }

  resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): vscode.McpStdioServerDefinition {
    return server;
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#changed.dispose();
  }
}
