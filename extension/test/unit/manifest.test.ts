import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { ALL_COMMANDS } from "../../src/commands/all-commands.js";

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    configuration: { properties: Record<string, { scope?: string }> };
    mcpServerDefinitionProviders: { id: string; label: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as Manifest;

describe("the manifest and the code agree", () => {
  it("contributes exactly the commands the extension registers, in the Custody category", () => {
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    expect(contributed).toEqual(ALL_COMMANDS.map((command) => command.id).sort());
    for (const command of manifest.contributes.commands.filter((entry) => entry.command !== "custody.loadMore")) expect(command.category, command.command).toBe("Custody");
  });

  it("offers every command the issue lists in the palette", () => {
    const hidden = new Set((manifest.contributes.menus.commandPalette ?? []).filter((entry) => entry.when === "false").map((entry) => entry.command));
    const visible = manifest.contributes.commands.map((command) => command.command).filter((id) => !hidden.has(id));
    for (const id of [
      "custody.connect",
      "custody.disconnect",
      "custody.refresh",
      "custody.checkHealth",
      "custody.syncAccount",
      "custody.copyAddress",
      "custody.copyId",
      "custody.showJson",
      "custody.searchTransactions",
      "custody.createTransaction",
      "custody.approveTransaction",
      "custody.solana.createStake",
      "custody.solana.deactivateStake",
      "custody.solana.withdrawStake",
      "custody.solana.delegateStake",
      "custody.solana.splitStake",
      "custody.solana.splitDeactivateStake",
      "custody.polkadot.bondExtra",
      "custody.polkadot.unbond",
      "custody.polkadot.rebond",
      "custody.polkadot.withdrawUnbonded",
      "custody.polkadot.setPayee",
      "custody.ethereum.stake",
      "custody.registerOperator",
    ]) {
      expect(visible, id).toContain(id);
    }
  });

  it("names only existing commands in its menus", () => {
    const known = new Set(manifest.contributes.commands.map((command) => command.command));
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const entry of entries) expect(known.has(entry.command), `${menu}: ${entry.command}`).toBe(true);
    }
  });

  it("declares the container's three views, a welcome view, lazy activation and the MCP provider", () => {
    expect(manifest.contributes.views.custody?.map((view) => view.name)).toEqual(["Accounts", "Stakes", "Transactions"]);
    const welcome = manifest.contributes.viewsWelcome.filter((entry) => entry.view === "custody.accounts").map((entry) => entry.contents).join("\n");
    expect(welcome).toContain("command:custody.connect");
    expect(welcome).toContain("command:custody.startEmulator");
    expect(manifest.activationEvents).not.toContain("*");
    expect(manifest.activationEvents).not.toContain("onStartupFinished");
    expect(manifest.engines.vscode).toBe("^1.101.0");
    expect(manifest.contributes.mcpServerDefinitionProviders).toEqual([{ id: "custody.mcp", label: "Custody Workspace" }]);
    expect(manifest.main).toBe("./dist/extension.cjs");
  });

  it("keeps the address, the operator, the policy and the audit log out of reach of a folder's own settings", () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of ["custody.baseUrl", "custody.operator", "custody.policyFile", "custody.auditLog"]) expect(properties[key]?.scope, key).toBe("application");
    expect(Object.keys(properties).sort()).toEqual(["custody.auditLog", "custody.baseUrl", "custody.operator", "custody.policyFile", "custody.refreshIntervalSeconds"]);
  });
});
