// Runs inside VS Code's extension host (through @vscode/test-electron): the same checks as the
// code-server test, with the extension's Test-mode API answering the questions a person would.
import { strict as assert } from "node:assert";
import * as vscode from "vscode";
import { CustodyClient } from "@custody/shared";
import type { CustodyExtensionApi } from "../../src/extension.js";
import type { TreeLine } from "../../src/testing/test-api.js";

const EXTENSION_ID = "custody-toolkit.custody-workspace";

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function labels(lines: TreeLine[]): string[] {
  return lines.map((line) => `${line.label} ${line.description}`);
}

export async function run(): Promise<void> {
  const baseUrl = process.env.CUSTODY_TEST_BASE_URL ?? "";
  const operator = process.env.CUSTODY_TEST_OPERATOR ?? "staking-bot";
  assert.ok(baseUrl, "CUSTODY_TEST_BASE_URL must name the emulator");
  const client = new CustodyClient({ baseUrl, operator });
  const extension = vscode.extensions.getExtension<CustodyExtensionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  const testing = api.testing;
  assert.ok(testing, "the Test-mode API is missing: is VS Code running the extension in Test mode?");

  testing.script({ input: baseUrl }, { input: operator });
  await vscode.commands.executeCommand("custody.connect");
  assert.equal(testing.connectionState().kind, "connected");

  const accounts = await client.listAllAccounts();
  const accountLines = await testing.treeLines("accounts", 2);
  for (const account of accounts)
    assert.ok(
      accountLines.some((line) => line.label === account.name),
      `Accounts shows ${account.name}`,
    );
  assert.deepEqual(
    accountLines.filter((line) => line.depth === 0).map((line) => line.label),
    ["Solana", "Polkadot", "Ethereum"],
  );
  const stakes = await client.listSolanaStakes(1);
  const stakeLines = await testing.treeLines("stakes", 2);
  assert.equal(stakeLines.filter((line) => line.contextValue.startsWith("solanaStake:")).length, stakes.length);
  const transactionLines = await testing.treeLines("transactions", 1);
  assert.match(transactionLines[0]?.description ?? "", /PENDING_APPROVAL/);

  const validator = stakes[0]?.blockchain_state.validator_address ?? "";
  testing.script({ pick: "sol-treasury" }, { input: "1.5" }, { pick: validator }, { confirm: true });
  await vscode.commands.executeCommand("custody.solana.createStake");
  assert.equal(testing.remainingAnswers(), 0);
  const staked = (await client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
  assert.equal(staked?.type, "STAKE_CREATE_DELEGATE");
  assert.equal(staked?.amount, 1_500_000_000n);

  testing.script({ pick: "dot-staking" }, { input: "2.5" }, { confirm: true });
  await vscode.commands.executeCommand("custody.polkadot.unbond");
  const unbonded = (await client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
  assert.equal(unbonded?.type, "UNBOND");
  assert.equal(unbonded?.amount, 25_000_000_000n);

  await eventually(
    async () => labels(await testing.treeLines("transactions", 1)),
    (lines) =>
      lines.some((line) => line.startsWith(`#${staked?.id} STAKE_CREATE_DELEGATE`)) && lines.some((line) => line.startsWith(`#${unbonded?.id} UNBOND`)),
    "the new transactions in the Transactions view",
  );
}
