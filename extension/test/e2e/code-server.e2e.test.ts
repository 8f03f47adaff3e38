import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "@custody/emulator";
import { CustodyClient } from "@custody/shared";
import { startCodeServer, type CodeServerSession } from "./code-server-session.js";
import { e2eTools, type E2eTools } from "./e2e-tools.js";
import { Workbench } from "./workbench.js";
import { expectFactsFirst, LONG_NAME } from "../../../test/support/shown-facts.js";
import { RawStdioServer } from "../../../mcp-server/test/harness/raw-stdio-server.js";
import { call } from "../../../mcp-server/test/harness/mcp-harness.js";
import { connectStdio } from "../../../test/packages/built-packages.js";

const OPERATOR = "staking-bot";
/** The MCP server as the README's client configurations start it (built by the test command's build step). */
const MCP_SERVER = new URL("../../../mcp-server/bin/custody-mcp.js", import.meta.url).pathname;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** A quiet workbench: no welcome page, no chat side bar, no update or telemetry calls. */
const USER_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "update.mode": "none",
  "custody.refreshIntervalSeconds": 0,
};

describe("the extension in real VS Code (code-server in Chromium)", () => {
  let tools: E2eTools;
  let emulator: RunningEmulator;
  let root: string;
  let session: CodeServerSession | undefined;
  let browser: Browser | undefined;
  let workbench: Workbench;
  let client: CustodyClient;
  let policyFile: string;

  beforeAll(async () => {
    tools = e2eTools();
    rmSync(tools.resultsDir, { recursive: true, force: true });
    mkdirSync(tools.resultsDir, { recursive: true });
    emulator = await startEmulator({ port: 0, seed: "demo", dataDir: null, log: () => undefined });
    client = new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR });
    root = mkdtempSync(join(tmpdir(), "custody-e2e-"));
    // The local policy denies one tool only: Sync Account, which must be held to it like every write.
    policyFile = join(root, "policy.json");
    writeFileSync(policyFile, JSON.stringify({ tools: { deny: ["sync_account"] } }));
    session = await startCodeServer(tools, root, { ...USER_SETTINGS, "custody.policyFile": policyFile });
    browser = await chromium.launch({ executablePath: tools.chromium, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1100 } });
    workbench = new Workbench(page, tools.resultsDir);
    await page.goto(session.url);
  });

  afterAll(async () => {
    await browser?.close();
    if (session) writeFileSync(join(tools.resultsDir, "code-server.log"), session.logs());
    await session?.close();
    await emulator?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("connects, shows the demo workspace in the three views, and stakes SOL and unbonds DOT from the palette", async () => {
    const { page } = workbench;

    // The view container is contributed by the installed .vsix; wait for it before using the palette.
    const custody = page.locator('.activitybar [aria-label^="Custody"]').first();
    await custody.waitFor({ state: "visible", timeout: 120_000 });
    await custody.click();
    await workbench.pane("Accounts").locator("text=Start the Built-in Emulator").waitFor({ state: "visible", timeout: 60_000 });
    await workbench.screenshot("welcome-not-connected");
    // The walkthrough's pictures (extension/scripts/walkthrough-media.mjs): the part of the window each step is about.
    const sideBar = page.locator(".part.sidebar").first();
    await workbench.screenshot("walkthrough-connect", { part: sideBar, maxHeight: 420 });

    await workbench.runCommand("Custody: Connect to a Workspace");
    await workbench.answer(emulator.baseUrl, { title: "Connect to a Workspace (1/2)" });
    await workbench.answer(OPERATOR, { title: "Connect to a Workspace (2/2)" });
    await workbench.notification(`connected to ${emulator.baseUrl} as ${OPERATOR}`);
    await page.locator(".statusbar-item", { hasText: `${OPERATOR} ·` }).waitFor({ state: "visible" });

    // Accounts, grouped by network, with balances in display units.
    const accounts = await client.listAllAccounts();
    for (const account of accounts) await workbench.rows("Accounts", account.name).first().waitFor({ state: "visible", timeout: 30_000 });
    const accountsText = await workbench.paneText("Accounts");
    for (const network of ["Solana", "Polkadot", "Ethereum"]) expect(accountsText).toContain(network);
    expect(accountsText).toContain("167.499975 SOL");
    // Stakes: the Solana stakes of the demo workspace, each with its total and state.
    const stakes = await client.listSolanaStakes(1);
    const stakeRow = /SOL (activating|activated|deactivating|deactivated)/;
    await workbench.rows("Stakes", stakeRow).first().waitFor({ state: "visible", timeout: 30_000 });
    expect(await workbench.rows("Stakes", stakeRow).count()).toBe(stakes.length);
    await workbench.rows("Stakes", "20.03 SOL deactivated, withdrawable").first().waitFor({ state: "visible" });
    // Transactions: a badge with the number waiting for approval, on the Custody container.
    const waiting = (await client.searchTransactions({ status: "PENDING_APPROVAL", page: 1, page_size: 1 })).page_info.count;
    expect(waiting).toBeGreaterThan(0);
    const badge = page.locator(".activitybar .action-item", { has: page.locator('[aria-label^="Custody"]') }).locator(".badge-content");
    await badge.filter({ hasText: String(waiting) }).waitFor({ state: "visible", timeout: 30_000 });
    // Transactions: pending approval first.
    const newest = (await client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
    await workbench.rows("Transactions", `#${newest?.id} `).first().waitFor({ state: "visible", timeout: 30_000 });
    const firstRow = await workbench.pane("Transactions").locator(".monaco-list-row").first().innerText();
    expect(firstRow).toContain("PENDING_APPROVAL");
    await workbench.screenshot("connected-demo-workspace");
    await workbench.screenshot("walkthrough-accounts", { part: sideBar, maxHeight: 620 });

    // A Solana stake from the palette, through the confirmation dialog.
    await workbench.clearNotifications();
    await workbench.runCommand("Custody: Solana: Create and Delegate a Stake");
    await workbench.pick("sol-treasury");
    const echo = await workbench.answer("1.5", { title: "Create and Delegate a Solana Stake (2/3)", echo: "1.5 SOL (1500000000 lamport)" });
    expect(echo).toContain("1.5 SOL (1500000000 lamport)");
    await workbench.pick(stakes[0]?.blockchain_state.validator_address ?? "", { filter: false });
    const stakeDialog = await workbench.dialogText();
    expect(stakeDialog).toContain("Amount: 1.5 SOL (1500000000 lamport)");
    expect(stakeDialog).toContain("Governance (staking rule): approved at once");
    await workbench.screenshot("solana-stake-confirmation");
    await workbench.screenshot("walkthrough-dry-run", { part: workbench.dialog });
    await workbench.clickDialogButton("Submit");
    const staked = await workbench.notification(/transaction #\d+ \(STAKE_CREATE_DELEGATE\) created/);
    const stakeId = Number(/#(\d+)/.exec(staked)?.[1]);
    expect((await client.getTransaction(stakeId)).amount).toBe(1_500_000_000n);
    await workbench.rows("Transactions", `#${stakeId} STAKE_CREATE_DELEGATE`).first().waitFor({ state: "visible", timeout: 30_000 });
    await workbench.screenshot("solana-stake-in-transactions");
    await workbench.screenshot("walkthrough-confirm", { part: workbench.pane("Transactions"), maxHeight: 420 });
    // The new stake in the Stakes view: its total and state, not "0 SOL active".
    await workbench.runCommand("Custody: Refresh All Views");
    await workbench.rows("Stakes", "1.5 SOL activating").first().waitFor({ state: "visible", timeout: 30_000 });
    await workbench.rows("Stakes", "20.03 SOL deactivated, withdrawable").first().waitFor({ state: "visible" });
    await workbench.screenshot("stakes-total-and-state");

    // A Polkadot unbond from the palette, through the confirmation dialog.
    await workbench.clearNotifications();
    await workbench.runCommand("Custody: Polkadot: Unbond");
    await workbench.pick("dot-staking");
    await workbench.answer("2.5", { title: "Unbond DOT (2/2)" });
    const unbondDialog = await workbench.dialogText();
    expect(unbondDialog).toContain("Amount: 2.5 DOT (25000000000 planck)");
    expect(unbondDialog).toContain("POST /transactions");
    await workbench.screenshot("polkadot-unbond-confirmation");
    await workbench.clickDialogButton("Submit");
    const unbonded = await workbench.notification(/transaction #\d+ \(UNBOND\) created/);
    const unbondId = Number(/#(\d+)/.exec(unbonded)?.[1]);
    expect(await client.getTransaction(unbondId)).toMatchObject({ type: "UNBOND", amount: 25_000_000_000n, recipient: "", speed: "CUSTOM" });
    await workbench.rows("Transactions", `#${unbondId} UNBOND`).first().waitFor({ state: "visible", timeout: 30_000 });
    await workbench.rows("Transactions", `#${stakeId} STAKE_CREATE_DELEGATE`).first().waitFor({ state: "visible" });
    await workbench.screenshot("polkadot-unbond-in-transactions");
  });

  it("shows what moves before the name in the confirmation dialog and the notification of a send from an account with a 487-character name", async () => {
    const recipient = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
    const rule = { creators: [{ username: OPERATOR, is_api: true }], steps: [{ quorum: 1, approvers: [{ username: OPERATOR, is_api: true }] }] };
    const created = await fetch(`${emulator.controlUrl}/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: LONG_NAME,
        currency: "solana_testnet",
        governance: { transaction: rule, staking: null, smart_contract: null },
        balance: "100000000000",
      }),
    });
    expect(created.ok).toBe(true);
    const id = ((await created.json()) as { id: number }).id;
    await workbench.clearNotifications();
    await workbench.runCommand("Custody: Create Transaction (Send)");
    await workbench.pick("payrolla");
    await workbench.answer(recipient, { title: "Create Transaction (2/6)" });
    await workbench.answer("1.5", { title: "Create Transaction (3/6)" });
    await workbench.answer("", { title: "Create Transaction (4/6)" });
    await workbench.pick("NORMAL");
    await workbench.answer("", { title: "Create Transaction (6/6)" });
    const dialog = await workbench.dialogText();
    await workbench.screenshot("long-name-send-confirmation");
    expectFactsFirst(
      dialog,
      [`from account ${id}:`, "1.5 SOL (1500000000 lamport)", `to recipient ${recipient}`, "fee 0.000005 SOL (5000 lamport)", "after: available_balance "],
      LONG_NAME,
      400,
    );
    await workbench.clickDialogButton("Submit");
    const sent = await workbench.notification(/transaction #\d+ \(SEND\) created/);
    expect(sent).toContain(`from account ${id}: 1.5 SOL (1500000000 lamport) to recipient ${recipient}`);
  });

  it(
    "shares its default store with an MCP server started as the README's client configurations " +
      "start it: the extension's sends count against the server's daily limit",
    async () => {
      if (!session) throw new Error("code-server did not start");
      // The server's policy alone limits staking-bot to 2 SOL a day; the extension has sent 1.5 SOL and staked 1.5 SOL above.
      const serverPolicy = join(root, "server-policy.json");
      writeFileSync(serverPolicy, JSON.stringify({ limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } } }));
      const recipient = (await client.listAllAccounts()).find((account) => account.name === "sol-cold")?.address ?? "";
      const dryRun = async (home: string) => {
        const server = new RawStdioServer(MCP_SERVER, {
          HOME: home,
          CUSTODY_BASE_URL: emulator.baseUrl,
          CUSTODY_OPERATOR: OPERATOR,
          CUSTODY_POLICY: serverPolicy,
        });
        try {
          await server.initialize();
          server.callTool(1, "create_transaction", { account: "sol-treasury", recipient, amount: "0.6", unit: "SOL" });
          const answer = await server.answer(1);
          const structured = (answer.result?.structuredContent ?? {}) as { status?: string; checks?: { code: string; severity: string }[] };
          return { status: structured.status, blocking: (structured.checks ?? []).filter((check) => check.severity === "block").map((check) => check.code) };
        } finally {
          server.child.stdin.end();
          await server.exited;
        }
      };
      // The server on the same HOME reads the extension's store (~/.custody-mcp/audit.jsonl) by default: 1.5 + 0.6 SOL is over 2.
      expect(await dryRun(session.home)).toEqual({ status: "blocked", blocking: ["POLICY_MAX_PER_DAY"] });
      // The same server on a HOME of its own has counted nothing: the refusal above came from the shared store.
      const elsewhere = join(root, "another-home");
      mkdirSync(elsewhere);
      expect(await dryRun(elsewhere)).toMatchObject({ status: "dry_run", blocking: [] });
    },
  );

  it(
    "shows the writes an MCP server in person mode prepared, sharing its default store, in Waiting for You with a " +
      "badge: Confirm sends once, Decline sends nothing and the retried call answers declined",
    async () => {
      if (!session) throw new Error("code-server did not start");
      // As the README configures a person-mode server, on the extension's HOME (the default store); no browser page of its own.
      const server = new RawStdioServer(MCP_SERVER, {
        HOME: session.home,
        CUSTODY_BASE_URL: emulator.baseUrl,
        CUSTODY_OPERATOR: OPERATOR,
        CUSTODY_CONFIRMATION: "person",
        CUSTODY_CONFIRM_OPENER: "none",
      });
      const recipient = (await client.listAllAccounts()).find((account) => account.name === "sol-cold")?.address ?? "";
      let id = 0;
      const tool = async (args: Record<string, unknown>) => {
        server.callTool((id += 1), "create_transaction", args);
        return ((await server.answer(id)).result?.structuredContent ?? {}) as { status?: string; reference?: string };
      };
      const withReference = async (reference: string) => (await client.searchAllTransactions({ label: reference })).map((transaction) => transaction.id);
      const waitingRows = () => workbench.rows("Waiting for You", "Send funds");
      try {
        await server.initialize();
        const prepare = async (amount: string) => {
          const args = { account: "sol-treasury", recipient, amount, unit: "SOL" };
          const dry = await tool(args);
          expect(dry.status).toBe("dry_run");
          const reference = dry.reference ?? "";
          expect((await tool({ ...args, reference })).status).toBe("waiting_for_person");
          return { args, reference };
        };

        const first = await prepare("0.021");
        await workbench.clearNotifications();
        await waitingRows().filter({ hasText: "0.021 SOL" }).first().waitFor({ state: "visible", timeout: 30_000 });
        // The view's badge joins the container's (its pending approvals): the activity bar names both.
        const badge = (label: string) => workbench.page.locator(`.activitybar .action-item[aria-label^="Custody"][aria-label*="${label}"]`).first();
        await badge("1 write waits for you").waitFor({ state: "visible", timeout: 30_000 });
        await workbench.screenshot("waiting-for-you", { part: workbench.pane("Waiting for You"), maxHeight: 300 });
        await waitingRows().filter({ hasText: "0.021 SOL" }).first().click();
        const dialog = await workbench.dialogText();
        expect(dialog).toContain("An assistant prepared this write. Send this request? Send funds from account 1: 0.021 SOL (21000000 lamport)");
        expect(dialog).toContain("POST /transactions");
        await workbench.screenshot("waiting-for-you-confirmation");
        await workbench.clickDialogButton("Confirm");
        await workbench.notification(/transaction #\d+ \(SEND\) created/);
        expect(await withReference(first.reference)).toHaveLength(1);
        expect((await tool({ ...first.args, reference: first.reference })).status).toBe("submitted");
        await waitingRows().first().waitFor({ state: "detached", timeout: 30_000 });
        await badge("waits for you").waitFor({ state: "detached", timeout: 30_000 });

        const second = await prepare("0.022");
        await waitingRows().filter({ hasText: "0.022 SOL" }).first().waitFor({ state: "visible", timeout: 30_000 });
        await waitingRows().filter({ hasText: "0.022 SOL" }).first().click();
        await workbench.dialogText();
        await workbench.clickDialogButton("Decline");
        await waitingRows().first().waitFor({ state: "detached", timeout: 30_000 });
        expect((await tool({ ...second.args, reference: second.reference })).status).toBe("declined");
        expect(await withReference(second.reference)).toEqual([]);
        // The first was sent once, and only once, whatever was decided since.
        expect(await withReference(first.reference)).toHaveLength(1);
      } finally {
        server.child.stdin.end();
        await server.exited;
      }
    },
  );

  // VS Code starts an extension's MCP server from the definition its provider gives, for agent mode;
  // code-server has no chat to start it from. What proves the user's path is the definition the
  // installed extension gives in this window (Custody: Show the MCP Server Definition opens exactly
  // what the provider returns), started as VS Code starts it: its command (the runtime VS Code runs
  // extensions with) on the bundled server inside the installed .vsix, with its environment over
  // the window's, then a real MCP client calling tools through it.
  it("provides an MCP server from inside the installed .vsix that starts on the window's connection and policy and answers tools", async () => {
    if (!session) throw new Error("code-server did not start");
    await workbench.runCommand("View: Close All Editors");
    await workbench.runCommand("Custody: Show the MCP Server Definition");
    const shown = JSON.parse(await workbench.editorText('"servers"')) as {
      servers: Record<string, { type: string; command: string; args: string[]; env: Record<string, string> }>;
    };
    await workbench.screenshot("mcp-server-definition");
    const definition = shown.servers["custody-workspace"];
    if (definition === undefined) throw new Error(`no custody-workspace server in ${JSON.stringify(shown)}`);
    expect(definition.type).toBe("stdio");
    expect(realpathSync(definition.command)).toBe(realpathSync(tools.node));
    const [bundle] = definition.args;
    expect(bundle?.startsWith(join(root, "extensions", "custody-toolkit.custody-workspace-"))).toBe(true);
    expect(bundle?.endsWith(join("dist", "mcp", "custody-mcp.js"))).toBe(true);
    expect(existsSync(bundle ?? "")).toBe(true);
    expect(definition.env).toMatchObject({ CUSTODY_BASE_URL: emulator.baseUrl, CUSTODY_OPERATOR: OPERATOR, CUSTODY_POLICY: policyFile });

    const { client: mcp } = await connectStdio(definition.command, definition.args, { PATH: process.env.PATH ?? "", HOME: session.home, ...definition.env });
    try {
      const names = (await mcp.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("create_transaction");
      // The window's policy came with the definition: the tool it denies is not offered.
      expect(names).not.toContain("sync_account");
      const accounts = await call(mcp, "list_accounts");
      expect(accounts.isError).toBe(false);
      expect(accounts.text).toContain("sol-treasury");
      const recipient = (await client.listAllAccounts()).find((account) => account.name === "sol-cold")?.address ?? "";
      const dryRun = await call(mcp, "create_transaction", { account: "sol-treasury", recipient, amount: "0.1", unit: "SOL" });
      expect(dryRun.structured.status).toBe("dry_run");
    } finally {
      await mcp.close();
    }
  });

  it("shows another operator's note holding a right-to-left override as the sanitiser's escape in Show as JSON", async () => {
    const treasury = new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" });
    const recipient = (await treasury.listAllAccounts()).find((account) => account.name === "sol-cold")?.address ?? "";
    const created = await treasury.createTransaction({
      account_name: "sol-treasury",
      amount: "1000",
      max_fees: "7500",
      recipient,
      speed: "NORMAL",
      note: { title: "refund\u202Etxt.exe", content: "see" },
    });
    await workbench.clearNotifications();
    await workbench.runCommand("Custody: Show as JSON");
    await workbench.pick("A transaction");
    await workbench.pick(`#${created.id} `);
    const lines = workbench.page.locator(".editor-instance .view-lines", { hasText: new RegExp(`"id":\\s${created.id},`) }).first();
    await lines.waitFor({ state: "visible", timeout: 30_000 });
    const text = (await lines.textContent()) ?? "";
    expect(text).toContain("refund\\u{202E}txt.exe");
    expect(text).not.toContain("\u202E");
    await workbench.screenshot("show-json-sanitised");
  });

  it("refuses Sync Account when the local policy denies sync_account, before asking for an account", async () => {
    await workbench.clearNotifications();
    await workbench.runCommand("Custody: Sync Account");
    const refused = await workbench.notification(/sync_account refused by the local policy/);
    expect(refused).toContain("sync_account refused by the local policy");
    await workbench.screenshot("sync-account-refused-by-policy");
  });

  it("starts the built-in emulator inside VS Code on the demo workspace and connects to it", async () => {
    await workbench.clearNotifications();
    await workbench.runCommand("Custody: Disconnect");
    await workbench.pane("Accounts").locator("text=Start the Built-in Emulator").waitFor({ state: "visible", timeout: 30_000 });
    await workbench.pane("Accounts").locator("text=Start the Built-in Emulator").click();
    await workbench.pick(OPERATOR);
    await workbench.notification(`connected to the built-in emulator (demo workspace) as ${OPERATOR}`);
    await workbench.rows("Accounts", "sol-treasury").first().waitFor({ state: "visible", timeout: 30_000 });
    // A fresh demo workspace: the transactions made against the other emulator are not in it.
    const text = await workbench.paneText("Transactions");
    expect(text).toContain("#16 SEND");
    expect(text).not.toContain("#17 ");
    await workbench.page.locator(".statusbar-item", { hasText: `${OPERATOR} (emulator)` }).waitFor({ state: "visible" });
    await workbench.screenshot("built-in-emulator");
  });

  it("offers its walkthrough in the Welcome page, each step with its title and picture", async () => {
    const { page } = workbench;
    await workbench.runCommand("Welcome: Open Walkthrough...");
    await workbench.pick("Get Started with Custody Workspace");
    const walkthrough = page.locator(".gettingStartedContainer");
    await walkthrough.locator("text=Connect to the demo or a workspace").first().waitFor({ state: "visible", timeout: 30_000 });
    for (const title of ["Look at the accounts", "A dry run before anything moves", "Confirm, and find it in Transactions"])
      await walkthrough.locator(`text=${title}`).first().waitFor({ state: "visible" });
    // The open step's picture, one of this suite's screenshots shipped in the .vsix, loaded for real
    // (the Welcome page gives it as srcset, at the theme's path).
    const picture = walkthrough.locator("img[srcset*='walkthrough'], img[src*='walkthrough']").first();
    await picture.waitFor({ state: "visible", timeout: 30_000 });
    await expect.poll(() => picture.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await workbench.screenshot("walkthrough");
  });
});
