import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { fake } from "./support/fake-vscode.js";
import { scriptSend, startHarness, type Harness } from "./support/extension-harness.js";

// Issue 23: what shared/ writes inside the extension (what moves, a check's message, an input rule's error) reaches
// the person through vscode.l10n.t, template by template. The bundle below stands for a
// translation: it keeps each template's placeholders and punctuation and writes every letter of
// it as "~", so any letter left in what the person reads is a placeholder's value.

const RECIPIENT = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";
const bundle = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "l10n", "bundle.l10n.json"), "utf8")) as Record<string, string>;

/** What l10n.t was asked: each template, and each value that did not come from a translation (workspace text, numbers, codes). */
function translateEverything(): { templates: Set<string>; values: Set<string> } {
  const templates = new Set<string>();
  const values = new Set<string>();
  fake.bundle = (template, args) => {
    templates.add(template);
    for (const arg of args) if (!String(arg).includes("«")) values.add(String(arg));
    return `«${template.replace(/[A-Za-z]/g, "~")}»`;
  };
  return { templates, values };
}

/** The letters left in `text` once every value is taken out: English the bundle could not translate. */
function untranslated(text: string, values: Set<string>): string[] {
  let rest = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) if (value !== "") rest = rest.split(value).join("");
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

describe("shared's text in the extension, through vscode.l10n.t", () => {
  it(
    "translates the confirmation modal wholly: what moves (account, amount, recipient, " + "fee, balances), the write's title and the modal's own lines",
    async () => {
      harness = await startHarness({ operator: "treasury-bot" });
      const asked = translateEverything();
      scriptSend("sol-treasury", RECIPIENT, "Cancel");
      await harness.run("custody.createTransaction");
      const modal = fake.messages.find((message) => message.modal);
      expect(modal?.message).toMatch(/^«/);
      expect(untranslated(modal?.message ?? "", asked.values)).toEqual([]);
      // The request's body is shown as the exact JSON sent, not words.
      const detail = (modal?.detail ?? "").split("\n").filter((line) => !line.startsWith("{"));
      expect(detail.length).toBeGreaterThan(8);
      expect(detail.flatMap((line) => untranslated(line, asked.values))).toEqual([]);
      for (const template of [
        "Send funds",
        "{0} from {1}: {2} {3}{4}{5}.",
        "Account: {0}",
        "Recipient: {0}",
        "Fee: {0} estimated{1}.",
        "Balances: {0}.",
        "Max fees",
      ]) {
        expect(asked.templates).toContain(template);
      }
      expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
    },
  );

  it("translates a warned check in the confirmation modal and a blocked one in the refusal: the finding's own template, not its English message", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    // A send to the account's own address: a warning the modal lists.
    const own = (await harness.client.getAccount(1)).address;
    const send = (recipient: string) => [
      { kind: "pick", label: "sol-treasury" } as const,
      { kind: "input", text: recipient } as const,
      { kind: "input", text: "1.5" } as const,
      { kind: "input", text: "" } as const,
      { kind: "pick", label: "NORMAL" } as const,
      { kind: "input", text: "" } as const,
    ];
    fake.script(...send(own), { kind: "modal", choice: "Cancel" });
    await harness.run("custody.createTransaction");
    const modal = fake.messages.find((message) => message.modal);
    const warned = (modal?.detail ?? "").split("\n").find((line) => line.includes("SEND_TO_SELF"));
    expect(warned).toContain("SEND_TO_SELF: «");
    expect(untranslated(warned ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain("recipient is the account's own address: the send would only pay fees");

    const policy = join(harness.storage, "policy.json");
    writeFileSync(policy, JSON.stringify({ allowed_recipients: ["15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"] }));
    fake.settings.set("custody.policyFile", policy);
    fake.script(...send(RECIPIENT));
    await harness.run("custody.createTransaction");
    const refusal = fake.messages.find((message) => message.level === "error" && message.modal);
    const blocked = (refusal?.detail ?? refusal?.message ?? "").split("\n").find((line) => line.includes("POLICY_RECIPIENT_NOT_ALLOWED"));
    expect(blocked).toContain("POLICY_RECIPIENT_NOT_ALLOWED: «");
    expect(untranslated(blocked ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain("{0} {1} is not on the local policy's allowed list ({2} entries)");
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates an amount's unit-math error and an address rule's error in their input boxes", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    fake.script({ kind: "pick", label: "sol-treasury" }, { kind: "input", text: "not an address" });
    await harness.run("custody.createTransaction");
    fake.script({ kind: "pick", label: "sol-treasury" }, { kind: "input", text: RECIPIENT }, { kind: "input", text: "1,5" });
    await harness.run("custody.createTransaction");
    fake.script({ kind: "pick", label: "sol-treasury" }, { kind: "input", text: RECIPIENT }, { kind: "input", text: "1".repeat(200) });
    await harness.run("custody.createTransaction");
    const errors = fake.inputs.map((input) => input.verdict).filter((verdict): verdict is string => typeof verdict === "string");
    expect(errors).toHaveLength(3);
    for (const error of errors) {
      expect(error).toMatch(/^«/);
      expect(untranslated(error, asked.values)).toEqual([]);
    }
    expect(errors[1]).toContain('"1,5"');
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("shows the same errors in English without a bundle", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    fake.script({ kind: "pick", label: "sol-treasury" }, { kind: "input", text: RECIPIENT }, { kind: "input", text: "1,5" });
    await harness.run("custody.createTransaction");
    expect(fake.inputs.at(-1)?.verdict).toBe('amount: must not contain thousands separators or a decimal comma; use "." as the only separator, got "1,5"');
  });
});
