import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { CustodyClient, DEFAULT_POLICY, FileGuardStore, WriteRoad, type WriteRequest } from "@custody/shared";
import { fake, type MarkdownString, type TreeItem } from "./support/fake-vscode.js";
import { scriptSend, solanaSendAs, startHarness, waitFor, type Harness } from "./support/extension-harness.js";
import type { WaitingProvider } from "../../src/views/waiting-provider.js";
import { auditLogLocation, auditLogNotice } from "../../src/guard/extension-audit.js";

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
    return masked(template);
  };
  return { templates, values };
}

/** A template as translateEverything's bundle writes it (a button the script presses as shown). */
function masked(template: string): string {
  return `«${template.replace(/[A-Za-z]/g, "~")}»`;
}

/** The letters left in `text` once every value is taken out: English the bundle could not translate. */
function untranslated(text: string, values: Set<string>): string[] {
  let rest = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) if (value !== "") rest = rest.split(value).join("");
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

/** Values that are clauses of English (three words or more): a text passed as a value instead of translated as a template. */
function englishValues(values: Set<string>): string[] {
  return [...values].filter((value) => /[a-z]{2,} [a-z]{2,} [a-z]{2,}/.test(value));
}

/** The send scriptSend makes: 1.5 SOL from sol-treasury. */
function sameSend(recipient: string): WriteRequest {
  return { kind: "send", account: "sol-treasury", recipient, amount: 1_500_000_000n, speed: "NORMAL" } as WriteRequest;
}

/** A call to the emulator's control plane. */
async function control(harness: Harness, method: string, path: string, body: object): Promise<void> {
  const answer = await fetch(`${harness.controlUrl}${path}`, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  expect(answer.ok).toBe(true);
}

/** The emulator's faults: set when given, and how many calls they have affected. */
async function faults(harness: Harness, set?: object): Promise<{ affected: number }> {
  const answer = await fetch(`${harness.controlUrl}/faults`, {
    method: set === undefined ? "GET" : "PUT",
    ...(set === undefined ? {} : { body: JSON.stringify(set), headers: { "content-type": "application/json" } }),
  });
  return (await answer.json()) as { affected: number };
}

/**
 * The same send by another process of the harness's operator, with a guard store of its own (a
 * process: a write's last check and POST run one at a time per operator within one). It makes its
 * dry run at once; go() confirms it.
 */
function otherStoreSend(harness: Harness, log: string): { said(line: string): Promise<void>; go(): void; stop(): void } {
  const script = join(import.meta.dirname, "support", "other-store-send.mjs");
  const shared = join(import.meta.dirname, "..", "..", "..", "shared", "dist", "index.js");
  const child = spawn(process.execPath, [script, shared, harness.baseUrl, harness.operator, log, "sol-treasury", RECIPIENT, "1500000000"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => lines.push(line));
  return {
    said: (line) => waitFor(() => lines.includes(line), `the other process to say ${line} (it said ${lines.join(", ") || "nothing"})`, 20_000),
    go: () => child.stdin.write("go\n"),
    stop: () => void child.kill(),
  };
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
        "{0} from account {1}: {2} {3}{4}{5}; account {1} is named “{6}”.",
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

  it("translates the request's summary and the governance summary in the confirmation modal: templates, not English values", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    scriptSend("sol-treasury", RECIPIENT, "Cancel");
    await harness.run("custody.createTransaction");
    const detail = (fake.messages.find((message) => message.modal)?.detail ?? "").split("\n");
    // "Summary: {0}" and "Governance ({0} rule): {1}", masked.
    const summary = detail.find((line) => line.startsWith("«~~~~~~~: «") && line.includes(RECIPIENT));
    const governance = detail.find((line) => line.startsWith("«~~~~~~~~~~ ("));
    expect(summary).toBeDefined();
    expect(governance).toBeDefined();
    for (const line of [summary ?? "", governance ?? ""]) expect(untranslated(line, asked.values)).toEqual([]);
    expect(asked.templates).toContain("send {0} from {1} (id {2}) to {3}, {4}");
    expect(asked.templates).toContain("max fees {0}");
    expect([...asked.templates].some((template) => /^(pending approval|approved at once)/.test(template))).toBe(true);
    expect(englishValues(asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates where a stake's deactivation sends its funds, described in the write's own words, in the modal", async () => {
    harness = await startHarness();
    const provider = harness.provider("stakes");
    const [solana] = await provider.getChildren();
    const activated = (await provider.getChildren(solana)).find((node) => String(node.treeItem().contextValue).includes(":deactivate:"));
    const asked = translateEverything();
    fake.script({ kind: "modal", choice: "Cancel" });
    await harness.run("custody.solana.deactivateStake", activated);
    const modal = fake.messages.find((message) => message.modal);
    const shown = [modal?.message ?? "", ...(modal?.detail ?? "").split("\n").filter((line) => !line.startsWith("{"))];
    expect(shown.flatMap((line) => untranslated(line, asked.values))).toEqual([]);
    expect(asked.templates).toContain("Into: {0}");
    expect(asked.templates).toContain("its own inactive balance, withdrawable at the next epoch");
    expect(englishValues(asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates the warning of a write raced by another store of the same operator", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const elsewhere = mkdtempSync(join(tmpdir(), "custody-elsewhere-"));
    const other = otherStoreSend(harness, join(elsewhere, "audit.jsonl"));
    try {
      await other.said("prepared");
      const asked = translateEverything();
      // Once the person is asked, the extension's send is held by the service after its last check;
      // meanwhile the other process checks (nothing to see yet) and sends at once: the extension's
      // lands second, and names it.
      const held = { latency_ms: 3000, methods: ["POST"], path_prefix: "/transactions", remaining: 1 };
      scriptSend("sol-treasury", RECIPIENT, masked("Submit"), async () => void (await faults(harness, held)));
      const sending = harness.run("custody.createTransaction");
      await waitFor(async () => (await faults(harness)).affected === 1, "the extension's send to be held");
      other.go();
      await other.said("submitted");
      await sending;
      const warning = fake.messages.find((message) => message.level === "warning" && !message.modal);
      expect(warning?.message).toMatch(/^«~~~~~~~: «/);
      expect(untranslated(warning?.message ?? "", asked.values)).toEqual([]);
      expect(asked.templates).toContain("this one (transaction {0}) duplicates transaction {1}");
      expect(englishValues(asked.values)).toEqual([]);
      expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
    } finally {
      other.stop();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("translates what moves of a write waiting for the person, read back from the guard's store, in its line and tooltip", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    // An assistant's person-mode dry run, on the extension's own log: another process wrote it.
    const store = new FileGuardStore(join(harness.storage, "audit", "custody-vscode-audit.jsonl"));
    const client = new CustodyClient({ baseUrl: harness.baseUrl, operator: harness.operator });
    const road = new WriteRoad({ client, operator: harness.operator, policy: () => DEFAULT_POLICY, store, surface: "mcp" });
    const nonceFor = (reference: string) => `${reference.slice(3)}${"0".repeat(12)}`;
    const prepared = await road.prepare(sameSend(RECIPIENT), { actor: { person: null }, nonceFor });
    await store.close();
    expect(prepared.status).toBe("prepared");
    const asked = translateEverything();
    const provider = fake.treeViews.get("custody.waiting")?.treeDataProvider as WaitingProvider;
    await waitFor(async () => (await provider.writes()).length === 1, "the waiting write to be listed");
    const [node] = await provider.getChildren();
    const item = node?.treeItem() as unknown as TreeItem;
    // The reference and the expiry are shown as they are.
    asked.values.add(String(item.description));
    // The tooltip's Markdown escapes its text's punctuation.
    const tooltip = (item.tooltip as MarkdownString).value.replace(/\\(.)/g, "$1");
    expect(item.label).toMatch(/^«/);
    for (const text of [String(item.label), tooltip]) expect(untranslated(text, asked.values)).toEqual([]);
    expect(asked.templates).toContain("{0} from account {1}: {2} {3}{4}{5}; account {1} is named “{6}”.");
    expect(asked.templates).toContain("Send funds");
    expect(englishValues(asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates the road's refusal of a confirmation, and the Submit button the person pressed (translated when shown)", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const treasury = (await harness.client.listAllAccounts()).find((account) => account.name === "sol-treasury");
    const asked = translateEverything();
    // While the person reads the modal, the account takes another name: the final check refuses the request, which sends the name.
    scriptSend("sol-treasury", RECIPIENT, masked("Submit"), async () => {
      await control(harness, "PUT", `/accounts/${treasury?.id}/name`, { name: "sol-treasury-old" });
    });
    await harness.run("custody.createTransaction");
    expect(fake.messages.find((message) => message.modal)?.items).toEqual([masked("Submit")]);
    const refusal = fake.messages.find((message) => message.level === "error" && !message.modal);
    expect(refusal?.message).toMatch(/^«~~~~~~~: .* ~~~~~~~: «/);
    expect(untranslated(refusal?.message ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain("Custody: {0} refused: {1}");
    expect(asked.templates).toContain(
      "the request differs from the dry run{0} (the arguments, the account's name, the " +
        "transaction or the fees changed since). Nothing was sent: run a new dry run",
    );
    expect(englishValues(asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates where a write was blocked after the person's confirmation (the stage's words, translated when shown)", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    // While the person reads the modal, another operator makes the identical send: the final check blocks it (SIMILAR_RECENT).
    scriptSend("sol-treasury", RECIPIENT, masked("Submit"), async () => {
      await solanaSendAs(harness, "staking-bot", { account_name: "sol-treasury", lamports: "1500000000", max_fees: "7500", recipient: RECIPIENT });
    });
    await harness.run("custody.createTransaction");
    const blocked = fake.messages.find((message) => message.level === "error" && message.modal);
    expect(blocked?.message).toMatch(/^«/);
    expect(untranslated(blocked?.message ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain(" on the final check");
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates the service's rejection of a write, in its notification and the output channel", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    scriptSend("sol-treasury", RECIPIENT, masked("Submit"), async () => {
      await faults(harness, { error_rate: 1, error_status: 400, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    });
    await harness.run("custody.createTransaction");
    const rejected = fake.messages.find((message) => message.level === "error" && !message.modal);
    expect(rejected?.message).toMatch(/^«/);
    expect(untranslated(rejected?.message ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain("Custody: {0} was refused by the service (not applied)");
    expect(asked.templates).toContain("{0} {1} answered HTTP {2}{3}: {4}{5}");
    const line = fake.output.find((entry) => entry.startsWith("[Custody] [error] "))?.slice("[Custody] [error] ".length);
    expect(line).toMatch(/^«/);
    expect(untranslated(line ?? "", asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates a write whose outcome is unknown (its answer lost), in its notification and the output channel", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    scriptSend("sol-treasury", RECIPIENT, masked("Submit"), async () => {
      await faults(harness, { drop_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
    });
    await harness.run("custody.createTransaction");
    const unknown = fake.messages.find((message) => message.level === "warning" && !message.modal);
    expect(unknown?.message).toMatch(/^«/);
    expect(untranslated(unknown?.message ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain(
      "{0}; it may still be applied. Nothing was re-sent. Before any new attempt, search the transactions by its reference {1}: " +
        "the guard keeps looking it up and names it in the next dry run of the same write",
    );
    const line = fake.output.find((entry) => entry.startsWith("[Custody] [warn] "))?.slice("[Custody] [warn] ".length);
    expect(line).toMatch(/^«/);
    expect(untranslated(line ?? "", asked.values)).toEqual([]);
    expect(englishValues(asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates an audit log that failed after the POST, in its notification and the output channel", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    const log = join(harness.storage, "audit", "custody-vscode-audit.jsonl");
    let broken: Promise<void> = Promise.resolve();
    scriptSend("sol-treasury", RECIPIENT, masked("Submit"), async () => {
      await faults(harness, { latency_ms: 500, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      // The reservation is the last record before the POST: the log breaks once it is written, while the POST is under way.
      broken = waitFor(() => readFileSync(log, "utf8").includes('"event":"reserved"'), "the reservation").then(() => {
        rmSync(log);
        mkdirSync(log);
      });
    });
    await harness.run("custody.createTransaction");
    await broken;
    const problem = fake.messages.find((message) => message.level === "error" && !message.modal);
    expect(problem?.message).toMatch(/^«/);
    expect(untranslated(problem?.message ?? "", asked.values)).toEqual([]);
    expect(asked.templates).toContain("the audit log could not be written ({0}): this write is missing from it and from the daily limits");
    const line = fake.output.find((entry) => entry.startsWith("[Custody] [warn] ") && entry.includes("«"))?.slice("[Custody] [warn] ".length);
    expect(untranslated(line ?? "", asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates a policy file that cannot be used, where the write stops", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    const policy = join(harness.storage, "policy.json");
    writeFileSync(policy, "{ not json");
    fake.settings.set("custody.policyFile", policy);
    scriptSend("sol-treasury", RECIPIENT, masked("Submit"));
    await harness.run("custody.createTransaction");
    const stopped = fake.messages.find((message) => message.level === "error" && !message.modal);
    expect(stopped?.message).toMatch(/^«/);
    expect(asked.templates).toContain("policy file {0}: {1}");
    expect(asked.templates).toContain("is not valid JSON ({0})");
    expect(untranslated(stopped?.message ?? "", asked.values)).toEqual([]);
    expect([...asked.templates].filter((template) => !(template in bundle))).toEqual([]);
  });

  it("translates the output channel's lines: a declined write, and where the audit log is", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const asked = translateEverything();
    fake.output = [];
    scriptSend("sol-treasury", RECIPIENT, "Cancel");
    await harness.run("custody.createTransaction");
    const declined = fake.output
      .filter((entry) => entry.startsWith("[Custody] [info] "))
      .at(-1)
      ?.slice("[Custody] [info] ".length);
    expect(declined).toMatch(/^«/);
    expect(asked.templates).toContain("{0}: declined, nothing was sent");
    const notices = [
      auditLogNotice({ path: "/var/custody/audit.jsonl", why: "default" }),
      auditLogNotice({ path: "/var/custody/audit.jsonl", why: "earlier_log" }),
      auditLogNotice(auditLogLocation(harness.storage, "relative/audit.jsonl")),
    ];
    for (const line of [declined ?? "", ...fake.output.map((entry) => entry.replace(/^\[Custody\] \[\w+\] /, "")), ...notices]) {
      expect(untranslated(line, asked.values)).toEqual([]);
    }
    expect(asked.templates).toContain("custody.{0} must be an absolute path (or start with ~/)");
    expect(englishValues(asked.values)).toEqual([]);
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
