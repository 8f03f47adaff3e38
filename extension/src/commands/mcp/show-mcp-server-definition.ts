import * as vscode from "vscode";
import { restrictedModeRefusal } from "../../guard/workspace-trust.js";
import { mcpSettingsProblem } from "../../mcp/mcp-server-provider.js";
import { notify } from "../../output/notify.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";

/** The server's key in the mcp.json shown. */
const SERVER_KEY = "custody-workspace";

/** The server entry of an mcp.json (VS Code's and other clients' form) for a stdio definition. */
export function mcpJsonEntry(definition: vscode.McpStdioServerDefinition): Record<string, unknown> {
  return { type: "stdio", command: definition.command, args: definition.args, env: definition.env };
}

/**
 * Opens the MCP server definition this window provides to VS Code's agent mode, as mcp.json: what
 * VS Code starts (the bundled server, run by VS Code's own runtime) and the environment it gets.
 * It holds paths and names, never a secret: the built-in emulator's key stays in its file.
 */
export const showMcpServerDefinition: CommandDefinition = {
  id: "custody.showMcpServerDefinition",
  async run(services: Services) {
    const refusal = restrictedModeRefusal() ?? mcpSettingsProblem(services.connection);
    if (refusal !== undefined) {
      await notify("info", vscode.l10n.t("Custody: no MCP server is offered: {0}.", refusal));
      return;
    }
    const [definition] = services.mcp.provideMcpServerDefinitions();
    if (definition === undefined) {
      await notify("info", vscode.l10n.t("Custody: this package of the extension carries no MCP server."));
      return;
    }
    const content = JSON.stringify({ servers: { [SERVER_KEY]: mcpJsonEntry(definition) } }, null, 2);
    const document = await vscode.workspace.openTextDocument({ language: "json", content: `${content}\n` });
    await vscode.window.showTextDocument(document, { preview: true });
  },
};
