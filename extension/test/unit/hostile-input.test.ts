import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { notify } from "../../src/output/notify.js";
import { OutputLog } from "../../src/output/output-log.js";
import { WindowPrompter } from "../../src/input/prompter.js";
import { fake } from "./support/fake-vscode.js";
import { solanaSendAs, startHarness, treeLines, type Harness } from "./support/extension-harness.js";

// Input boxes refuse a text by its length before anything reads it; workspace text with hidden
// characters reaches no label, tooltip, notification or output line raw.

/** "INJ" in Unicode tag characters: invisible on screen. */
const TAGGED = "\u{E0049}\u{E004E}\u{E004A}";
const RAW = /[\u00AD\u2028\u202E]|[\u{E0000}-\u{E0FFF}]/u;

/** An account of treasury-bot's, named by the workspace (the emulator's control plane), with a balance when given. */
async function plantAccount(on: Harness, name: string, balance?: string): Promise<{ id: number }> {
  const response = await fetch(`${on.controlUrl}/accounts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name,
      currency: "solana_testnet",
      ...(balance === undefined ? {} : { balance }),
      governance: { transaction: { creators: [{ username: "treasury-bot", is_api: true }], steps: [] }, staking: null, smart_contract: null },
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: number };
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("input boxes", () => {
  it("refuse a text longer than the field by its length, naming the field, before the box's own check reads it", async () => {
    fake.reset();
    const validate = vi.fn(() => undefined);
    fake.script({ kind: "input", text: "9".repeat(3_000_000) });
    const refusal = await new WindowPrompter()
      .input({ title: "Amount", prompt: "Amount", limit: { field: "amount", max: 97 }, validate })
      .catch((error: unknown) => error as Error);
    expect((refusal as Error).message).toContain("amount: at most 97 characters, got 3000000");
    expect(validate).not.toHaveBeenCalled();
  });

  it("refuse a three-million-digit amount in the send's amount box, and a note with a hidden character in its note box; nothing is sent", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const before = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count;
    fake.script(
      { kind: "pick", label: "sol-treasury" },
      { kind: "input", text: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" },
      { kind: "input", text: "9".repeat(3_000_000) },
    );
    await harness.run("custody.createTransaction");
    expect(fake.inputs.at(-1)?.verdict).toBe("amount: at most 97 characters, got 3000000");
    fake.script(
      { kind: "pick", label: "sol-treasury" },
      { kind: "input", text: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" },
      { kind: "input", text: "0.25" },
      { kind: "input", text: "" },
      { kind: "pick", label: "FAST" },
      { kind: "input", text: `payroll${TAGGED}` },
    );
    await harness.run("custody.createTransaction");
    expect(fake.inputs.at(-1)?.verdict).toBe("note: must not contain invisible or bidirectional control characters (found U+E0049 at character 8)");
    expect((await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count).toBe(before);
  });
});

describe("the modal's message", () => {
  it("shows what moves whole at its budgets (cut name, two cut destinations, an unknown fee): the fee and the balances after stay", async () => {
    fake.reset();
    const cut = (budget: number, what: string) => `${"W".repeat(budget)}…[${what} cut: 9,999 characters]`;
    const message =
      "Send this AGAIN? The earlier identical write may already be applied: this MAY PAY TWICE. Send this request? " +
      `Approve transaction from account 12345: 40 SOL (40000000000 lamport) of transaction ${cut(256, "transaction")}, ` +
      `to recipient ${cut(256, "recipient")}; fee not known (${"E".repeat(256)}); after: balance 60 SOL (60000000000 lamport); ` +
      `account 12345 is named “${cut(64, "name")}”.`;
    expect(message.length).toBeGreaterThan(1000);
    fake.script({ kind: "modal", choice: "Submit" });
    expect(await new WindowPrompter().confirm({ message, detail: "", action: "Submit" })).toBe(true);
    expect(fake.messages.find((shown) => shown.modal)?.message).toBe(message);
  });
});

describe("icon syntax in workspace text", () => {
  it("shows as typed in a quick pick, never as an icon: an account named '$(pass-filled) verified-payroll' draws no check", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    await plantAccount(harness, "$(pass-filled) verified-payroll");
    fake.script({ kind: "pick", label: "verified-payroll" });
    await harness.run("custody.copyAddress");
    const item = fake.picks.at(-1)?.items.find((each) => each.label.includes("verified-payroll"));
    expect(item?.label).toBe("\\$(pass-filled) verified-payroll");
    expect(fake.clipboard).not.toBe("");
  });
});

describe("hidden characters in workspace text", () => {
  it("show as escapes in tree labels, descriptions and tooltips", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const name = `vault\u00AD${TAGGED}\u2028ops`;
    await plantAccount(harness, name);
    await harness.run("custody.refresh");
    const lines = await treeLines(harness.provider("accounts"), 2);
    const planted = lines.find((line) => line.label.startsWith("vault"));
    expect(planted?.label).toBe("vault\\u{00AD}\\u{E0049}\\u{E004E}[+2 hidden]ops");
    const tooltip = (planted?.node.treeItem() as unknown as { tooltip: { value: string } }).tooltip.value;
    expect(tooltip).not.toMatch(RAW);
    for (const line of lines) expect(`${line.label} ${line.description}`).not.toMatch(RAW);
  });

  it("keep an account's id in its tooltip's title whatever the length of its name (10,000 characters)", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const { id } = await plantAccount(harness, `long-${"x".repeat(9995)}`, "100000000");
    await harness.run("custody.refresh");
    const planted = (await treeLines(harness.provider("accounts"), 2)).find((line) => line.label.startsWith("long-"));
    const tooltip = (planted?.node.treeItem() as unknown as { tooltip: { value: string } }).tooltip.value;
    const title = (tooltip.split("\n")[0] ?? "").replace(/\\(.)/g, "$1");
    const named = `long-${"x".repeat(59)}…[name cut: 10,000 characters] (id ${id})`;
    expect(title).toBe(`**${named}**`);
    const name = `long-${"x".repeat(9995)}`;
    await solanaSendAs(harness, "treasury-bot", {
      account_name: name,
      lamports: "1000",
      max_fees: "5000",
      recipient: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk",
    });
    await harness.run("custody.refresh");
    const sent = (await treeLines(harness.provider("transactions"), 2)).find((line) => line.description.includes("long-"));
    const sentTooltip = (sent?.node.treeItem() as unknown as { tooltip: { value: string } }).tooltip.value.replace(/\\(.)/g, "$1");
    expect(sentTooltip).toContain(`- account: ${named}\n`);
  });

  it("show as escapes in Show as JSON, as the sanitiser shows them", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const recipient = (await harness.client.listAllAccounts()).find((account) => account.name === "sol-cold")?.address ?? "";
    // Another operator's note, written straight to the service: the guard refuses such a note, the workspace does not.
    const note = { title: `refund\u202Etxt.exe${TAGGED}`, content: `pay\u200Bnow` };
    const created = await harness.client.createTransaction({
      account_name: "sol-treasury",
      amount: "1000",
      max_fees: "7500",
      recipient,
      speed: "NORMAL",
      note,
    });
    fake.script({ kind: "pick", label: "A transaction" }, { kind: "pick", label: `#${created.id} ` });
    await harness.run("custody.showJson");
    const content = fake.documents.at(-1)?.content ?? "";
    expect(content).toContain(`"id": ${created.id}`);
    expect(content).not.toMatch(RAW);
    expect(content).not.toContain("\u200B");
    expect(content).toContain("refund\\u{202E}txt.exe\\u{E0049}\\u{E004E}\\u{E004A}");
    expect(content).toContain("pay\\u{200B}now");
  });

  it("show as escapes in notifications and output lines", () => {
    fake.reset();
    void notify("info", `Custody: copied ${TAGGED}\u202Eaddress`);
    expect(fake.messages.at(-1)?.message).toBe("Custody: copied \\u{E0049}\\u{E004E}\\u{E004A}[+1 hidden]address");
    const output = new OutputLog();
    output.info(`sync of vault${TAGGED}`);
    output.block("heading\u2028", [`line${TAGGED}`]);
    for (const line of fake.output) expect(line).not.toMatch(RAW);
    expect(fake.output.join("\n")).toContain("sync of vault\\u{E0049}");
  });
});
