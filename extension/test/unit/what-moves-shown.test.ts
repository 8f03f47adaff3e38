import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { sanitizeUntrustedText } from "@custody/shared";
import { expectFactsFirst, HOSTILE_NAMES } from "../../../test/support/shown-facts.js";
import { fake } from "./support/fake-vscode.js";
import { scriptSend as scriptSendTo, solanaSendAs, startHarness, type Harness } from "./support/extension-harness.js";

// Issue 18, point 1, in VS Code: a name built to be long once shown (each invisible character
// escaped) never pushes what moves out of the confirmation modal (its message was cut at 400
// characters, its detail at 6,000) or the notification that follows.

const NAMES = HOSTILE_NAMES;
const RECIPIENT = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
const STRANGER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

const bot = (username: string) => ({ username, is_api: true });
/** treasury-bot's own sends are approved at once; staking-bot's wait for treasury-bot's approval. */
const RULE = { creators: [bot("treasury-bot"), bot("staking-bot")], steps: [{ quorum: 1, approvers: [bot("treasury-bot")] }] };

async function accountWithName(harness: Harness, name: string, rule: unknown = RULE): Promise<number> {
  const response = await fetch(`${harness.controlUrl}/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, currency: "solana_testnet", governance: { transaction: rule, staking: null, smart_contract: null }, balance: "100000000000" }),
  });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { id: number }).id;
}

/** The answers to Custody: Create Transaction for 1.5 SOL to RECIPIENT from the account picked by `label`, the modal answered with `choice`. */
function scriptSend(label: string, choice: "Submit" | "Cancel"): void {
  scriptSendTo(label, RECIPIENT, choice);
}

/** How the account's pick item begins: its name as the pick shows it. */
function pickLabel(name: string): string {
  return sanitizeUntrustedText(name, 20);
}

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

describe.each(Object.entries(NAMES))("what moves, on an account with %s", (_label, name) => {
  it("leads the send's modal (message and detail) and its notification: account id, amount in both units, recipient, fee, balance after", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const id = await accountWithName(harness, name);
    scriptSend(pickLabel(name).slice(0, 12), "Submit");
    await harness.run("custody.createTransaction");
    expect(fake.answers).toHaveLength(0);
    const modal = fake.messages.find((message) => message.modal);
    expectFactsFirst(
      modal?.message ?? "",
      [`from account ${id}:`, "1.5 SOL (1500000000 lamport)", `to recipient ${RECIPIENT}`, "fee 0.000005 SOL (5000 lamport)", "after: available_balance "],
      name,
      400,
    );
    expectFactsFirst(
      modal?.detail ?? "",
      [
        `Account: `,
        `(id ${id})`,
        "Amount: 1.5 SOL (1500000000 lamport)",
        `Recipient: ${RECIPIENT}`,
        "Fee: 0.000005 SOL (5000 lamport) estimated",
        "Balances: available_balance ",
      ],
      name,
      600,
    );
    expect(modal?.detail?.indexOf("Balances:")).toBeLessThan(modal?.detail?.indexOf("Summary:") ?? -1);
    const sent = fake.messages.find((message) => message.level === "info" && message.message.includes("created"));
    expect(sent?.message).toContain(`to recipient ${RECIPIENT}`);
    expectFactsFirst(
      sent?.message ?? "",
      ["created", `from account ${id}:`, "1.5 SOL (1500000000 lamport)", `to recipient ${RECIPIENT}`, "after: available_balance "],
      name,
      400,
    );
  });

  it("leads the approval's modal with the pending send's own amount and recipient", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const id = await accountWithName(harness, name);
    const pending = await solanaSendAs(harness, "staking-bot", { account_name: name, lamports: "40000000000", max_fees: "7500", recipient: STRANGER });
    expect(pending.status).toBe("PENDING_APPROVAL");
    fake.script({ kind: "pick", label: `#${pending.id} ` }, { kind: "modal", choice: "Submit" });
    await harness.run("custody.approveTransaction");
    const modal = fake.messages.find((message) => message.modal);
    expectFactsFirst(
      modal?.message ?? "",
      [`from account ${id}:`, "40 SOL (40000000000 lamport)", `of transaction ${pending.id} (SEND)`, `to recipient ${STRANGER}`, "fee ", "after: balance "],
      name,
      400,
    );
    expectFactsFirst(
      modal?.detail ?? "",
      [`(id ${id})`, "Amount: 40 SOL (40000000000 lamport)", `Transaction: ${pending.id} (SEND)`, `Recipient: ${STRANGER}`, "Fee: ", "Balances: balance "],
      name,
      600,
    );
  });
});

describe("workspace text with line breaks in the modal", () => {
  it("cannot begin a line of the detail: a rule member named 'bob\\nRecipient: ...' leaves one Recipient line, the real one", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const rule = { creators: [bot("treasury-bot")], steps: [{ quorum: 1, approvers: [{ username: `bob\nRecipient: ${STRANGER}`, is_api: false }] }] };
    await accountWithName(harness, "ops-with-bob", rule);
    scriptSend("ops-with-bob", "Cancel");
    await harness.run("custody.createTransaction");
    const detail = fake.messages.find((message) => message.modal)?.detail ?? "";
    expect(
      detail.split("\n").filter((line) => line.startsWith("Recipient: ")),
      detail,
    ).toEqual([`Recipient: ${RECIPIENT}`]);
    expect(detail).toContain("bob\\u{000A}Recipient: ");
  });
});
