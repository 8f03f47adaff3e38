import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { ServiceBaseUrl, type Currency } from "@custody/shared";
import { amountValidator, readAmount } from "../../src/input/amount-input.js";
import { addressValidator } from "../../src/input/address-rule.js";
import { baseUrlProblem, operatorProblem } from "../../src/connection/settings-rules.js";
import { fake, InputBoxValidationSeverity } from "./support/fake-vscode.js";
import { startHarness, type Harness } from "./support/extension-harness.js";
import { StakeNode } from "../../src/views/nodes/stake-node.js";

const SOL: Currency = {
  name: "solana_testnet",
  units: [
    { code: "lamport", magnitude: 0 },
    { code: "SOL", magnitude: 9 },
  ],
};

describe("amounts as typed", () => {
  it("reads display units, or any unit named after the amount, exactly", () => {
    expect(readAmount("1.5", SOL, "amount")).toBe(1_500_000_000n);
    expect(readAmount("0.000000001", SOL, "amount")).toBe(1n);
    expect(readAmount("1.5 SOL", SOL, "amount")).toBe(1_500_000_000n);
    expect(readAmount("1500000000 lamport", SOL, "amount")).toBe(1_500_000_000n);
    expect(readAmount("123456789012345678.123456789", SOL, "amount")).toBe(123_456_789_012_345_678_123_456_789n);
  });

  it("refuses malformed amounts with the field and the rule", () => {
    const validate = amountValidator(SOL, "amount");
    expect(validate("1,5")).toMatch(/^amount: .*decimal comma/);
    expect(validate("1e9")).toMatch(/^amount: .*exponent/);
    expect(validate("0.0000000001")).toMatch(/^amount: .*at most 9 decimal places/);
    expect(validate("-1")).toMatch(/^amount: .*negative/);
    expect(validate("1.5 ETH")).toMatch(/^amount: .*not a unit of solana_testnet/);
    expect(validate("")).toMatch(/^amount: /);
  });

  it("echoes a valid amount in both units, and stops on a blocking pre-flight finding", () => {
    expect(amountValidator(SOL, "amount")("2")).toEqual({ message: "= 2 SOL (2000000000 lamport)", severity: InputBoxValidationSeverity.Info });
    const blocked = amountValidator(SOL, "amount", () => [{ code: "X_ABOVE", severity: "block", message: "amount is above the available balance", facts: {} }]);
    expect(blocked("2")).toBe("amount is above the available balance");
    const warned = amountValidator(SOL, "amount", () => [{ code: "X_WARN", severity: "warn", message: "close to the limit", facts: {} }]);
    expect(warned("2")).toEqual({ message: "2 SOL (2000000000 lamport): close to the limit", severity: InputBoxValidationSeverity.Warning });
  });

  it("checks addresses and connection fields with the network's rule", () => {
    expect(addressValidator("Solana", "recipient")("0xabc")).toMatch(/^recipient: must be a Solana address/);
    expect(addressValidator("Solana", "recipient")("AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk")).toBeUndefined();
    expect(addressValidator("Ethereum", "recipient")("0x12")).toMatch(/^recipient: must be an Ethereum address/);
    expect(addressValidator("Ethereum", "recipient")("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBeUndefined();
    expect(addressValidator("Ethereum", "recipient")("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAec")).toMatch(
      /^recipient: must be an Ethereum address.*valid EIP-55 checksum/,
    );
    expect(baseUrlProblem("ftp://x")).toBe("base URL: must use http or https");
    expect(baseUrlProblem("http://127.0.0.1:8080/module")).toBeUndefined();
    expect(operatorProblem("two words")).toBe("operator: must contain no space");
  });

  it("checks the connection fields with the rules the client and the MCP server apply, in their words", () => {
    // Shared's message, with where a gateway's secret goes instead.
    expect(baseUrlProblem("http://user:pw@127.0.0.1/module?token=x")).toBe(
      "base URL: must not carry credentials (use Custody: Set or Clear the Gateway Access Token); must have no query or fragment",
    );
    // Trimmed as the server trims it: what one takes the other takes, as the same address.
    for (const written of ["\u00a0http://127.0.0.1:8080/module\u00a0", "\u2003http://127.0.0.1:8080/module\r\n"]) {
      expect(baseUrlProblem(written)).toBeUndefined();
      expect(ServiceBaseUrl.parse(written)).toBe("http://127.0.0.1:8080/module");
    }
    // An operator name travels in a header: printable ASCII only.
    expect(operatorProblem("trésor-bot")).toBe("operator: must be printable ASCII (it is sent in the X-Vendor-API-User header)");
    expect(operatorProblem("tr\u200bbot")).toMatch(/^operator: must be printable ASCII/);
  });
});

describe("multi-step commands", () => {
  let harness: Harness;
  afterEach(async () => {
    await harness.close();
  });

  it("creates a transaction in six steps, proposing max fees from the estimate when left empty", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    fake.script(
      { kind: "pick", label: "sol-treasury" },
      { kind: "input", text: "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk" },
      { kind: "input", text: "0.25" },
      { kind: "input", text: "" },
      { kind: "pick", label: "FAST" },
      { kind: "input", text: "payroll march" },
      { kind: "modal", choice: "Submit" },
    );
    await harness.run("custody.createTransaction");
    expect(fake.answers).toHaveLength(0);
    expect(fake.inputs.map((input) => input.title)).toEqual([
      "Custody: Create Transaction (2/6)",
      "Custody: Create Transaction (3/6)",
      "Custody: Create Transaction (4/6)",
      "Custody: Create Transaction (6/6)",
    ]);
    const modal = fake.messages.find((message) => message.modal);
    expect(modal?.detail).toContain("Amount: 0.25 SOL (250000000 lamport)");
    expect(modal?.detail).toContain("(max fees proposed from the service's fee estimate)");
    const [created] = await harness.client.searchAllTransactions({ label: "payroll march" });
    expect(created).toMatchObject({ type: "SEND", amount: 250_000_000n, speed: "FAST" });
    expect(modal?.detail).toContain(`Max fees: `);
    expect(modal?.detail).toContain(`(${created?.max_fees} lamport)`);
  });

  it("refuses a recipient that is not an address of the account's network, before any request", async () => {
    harness = await startHarness({ operator: "treasury-bot" });
    const before = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count;
    fake.script({ kind: "pick", label: "sol-treasury" }, { kind: "input", text: "not an address" });
    await harness.run("custody.createTransaction");
    expect(fake.inputs[0]?.verdict).toMatch(/^recipient: must be a Solana address/);
    expect(fake.messages.at(-1)?.message).toMatch(/recipient: must be a Solana address/);
    expect((await harness.client.searchTransactions({ page: 1, page_size: 1 })).page_info.count).toBe(before);
  });

  it("registers an operator: create (device id), the administrator's invitation, then register with its UUID", async () => {
    harness = await startHarness();
    fake.script(
      { kind: "pick", label: "Create a new API operator" },
      { kind: "input", text: "audit-bot" },
      { kind: "modal", choice: "Create" },
      { kind: "escape" },
    );
    await harness.run("custody.registerOperator");
    const deviceId = /Operator audit-bot created .*device id (\S+)/.exec(fake.output.join("\n"))?.[1];
    expect(deviceId).toMatch(/^[0-9a-fA-F]+$/);
    expect(fake.messages.some((message) => message.message.includes(`invite audit-bot in the workspace application with the device id ${deviceId}`))).toBe(
      true,
    );
    const invitation = await fetch(`${harness.controlUrl}/invitations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "audit-bot", device_id: deviceId }),
    });
    const { uuid } = (await invitation.json()) as { uuid: string };
    fake.script({ kind: "pick", label: "Register an operator created earlier" }, { kind: "input", text: "audit-bot" }, { kind: "input", text: uuid });
    await harness.run("custody.registerOperator");
    expect(fake.messages.at(-1)?.message).toContain("audit-bot is registered; administrators must now approve");
    const users = await harness.client.listAllUsers();
    expect(users.find((user) => user.username === "audit-bot")?.status).toBe("PENDING_APPROVAL");
  });

  it("searches transactions by note label and opens the chosen one as exact JSON", async () => {
    harness = await startHarness();
    fake.script({ kind: "pick", label: "dot-staking" }, { kind: "input", text: "1" }, { kind: "modal", choice: "Submit" });
    await harness.run("custody.polkadot.bondExtra");
    const created = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
    const reference = /\[ref (cw-[0-9a-f]{20})\]/.exec(created?.notes[0]?.content ?? "")?.[1];
    expect(reference).toBeDefined();
    fake.script({ kind: "input", text: reference ?? "" }, { kind: "pick", label: `#${created?.id} ` });
    await harness.run("custody.searchTransactions");
    const document = fake.documents.at(-1);
    expect(document?.language).toBe("json");
    expect(document?.content).toContain(`"id": ${created?.id}`);
    expect(document?.content).toContain(`"amount": "10000000000"`);
  });

  it("shows a stake from its context menu as JSON, balances as exact integers", async () => {
    harness = await startHarness();
    const provider = harness.provider("stakes");
    const [solanaGroup] = await provider.getChildren();
    const [first] = await provider.getChildren(solanaGroup);
    await harness.run("custody.showJson", first);
    const stake = (await harness.client.listSolanaStakes(1))[0];
    const content = fake.documents.at(-1)?.content ?? "";
    expect(content).toContain(`"uid": "${stake?.uid}"`);
    expect(content).toContain(`"total_balance": ${stake?.blockchain_state.total_balance}`);
    expect(fake.picks).toHaveLength(0);
  });

  it("copies an account's address and a transaction's id", async () => {
    harness = await startHarness();
    const account = (await harness.client.listAllAccounts())[0];
    fake.script({ kind: "pick", label: account?.name ?? "" });
    await harness.run("custody.copyAddress");
    expect(fake.clipboard).toBe(account?.address);
    const newest = (await harness.client.searchTransactions({ page: 1, page_size: 1 })).edges[0]?.node;
    fake.script({ kind: "pick", label: `#${newest?.id} ` });
    await harness.run("custody.copyId");
    expect(fake.clipboard).toBe(String(newest?.id));
  });

  it("does not copy an address holding a hidden character (a zero-width space): what is pasted would not be what the view showed", async () => {
    harness = await startHarness();
    const provider = harness.provider("stakes");
    const [solanaGroup] = await provider.getChildren();
    const [first] = await provider.getChildren(solanaGroup);
    const shown = first as StakeNode;
    const state = shown.stake.blockchain_state;
    const planted = { ...shown.stake, blockchain_state: { ...state, pub_key: `${state.pub_key.slice(0, 4)}\u200B${state.pub_key.slice(4)}` } };
    await harness.run("custody.copyAddress", new StakeNode(planted, shown.account, shown.currency, false));
    expect(fake.clipboard).toBe("");
    expect(fake.messages.at(-1)?.level).toBe("error");
    expect(fake.messages.at(-1)?.message).toContain("address: must not contain invisible or bidirectional control characters (found U+200B at character 5)");
    await harness.run("custody.copyAddress", shown);
    expect(fake.clipboard).toBe(state.pub_key);
  });
});
