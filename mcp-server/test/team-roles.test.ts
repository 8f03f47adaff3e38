import { readFileSync } from "node:fs";
import { AuditRecord, type Person, type Policy } from "@custody/shared";
import type { z } from "zod";
import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyAuditCommand } from "../src/audit/verify-audit-command.js";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { blockingCodes } from "./harness/guarded-write.js";
import { call, connectSession, startTestEmulator, testContext, type TestContext } from "./harness/mcp-harness.js";

// A team's policy: each person's role decides their tools, the operator they act as and their own
// daily limit; the team's limit counts everyone's writes together.
const POLICY: z.input<typeof Policy> = {
  team_limits: { solana_testnet: { max_per_day: { amount: "3", unit: "SOL" } } },
  roles: [
    {
      name: "treasury",
      when: { groups: ["treasury-operators"] },
      operator: DEMO.treasuryBot,
      toolsets: ["read", "transactions"],
      limits: { solana_testnet: { max_per_day: { amount: "2", unit: "SOL" } } },
    },
    { name: "staking", when: { roles: ["staking"] }, operator: DEMO.stakingBot, toolsets: ["read", "transactions", "solana_staking"] },
    { name: "viewers", when: { groups: ["treasury-viewers"] }, read_only: true },
  ],
};

const person = (subject: string, over: Partial<Person> = {}): Person => ({ subject, groups: [], roles: [], ...over });
const ALICE = person("alice", { name: "Alice Martin", email: "alice@example.com", client: "treasury-desk", groups: ["treasury-operators"] });
const BEA = person("bea", { name: "Bea Lund", groups: ["treasury-operators"] });
const SAM = person("sam", { name: "Sam Staker", roles: ["staking"] });
const VICTOR = person("victor", { groups: ["treasury-viewers"] });
const MALLORY = person("mallory", { groups: ["contractors"] });

let emulator: RunningEmulator;
let recipient: string;
let team: TestContext;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  for (const session of open.splice(0)) await session.close();
  await resetWorkspace(emulator);
  recipient = (await accountNamed(emulator, DEMO.solCold)).address;
  team = testContext(emulator, { policy: POLICY });
});

async function sessionOf(who: Person) {
  const session = await connectSession(team.ctx, undefined, who);
  open.push(session);
  return session.client;
}

const send = (amount: string, note: string) => ({ account: DEMO.solTreasury, recipient, amount, unit: "SOL", note });
const auditRecords = () =>
  readFileSync(team.auditPath, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => AuditRecord.parse(JSON.parse(line)));
const readNames = ALL_TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);

describe("a team server: each person through their role", () => {
  it("lists and allows each person only what their role gives, and nothing to a person no role matches", async () => {
    const names = async (who: Person) => (await (await sessionOf(who)).listTools()).tools.map((tool) => tool.name).sort();
    expect(await names(VICTOR)).toEqual([...readNames].sort());
    const alices = await names(ALICE);
    expect(alices).toContain("create_transaction");
    expect(alices).not.toContain("solana_create_stake");
    expect(await names(SAM)).toContain("solana_create_stake");
    expect(await names(MALLORY)).toEqual([]);

    // Not listed is not callable: the write tool does not exist for a viewer.
    // A protocol error (-32602), as the spec has it for an unknown tool.
    await expect(call(await sessionOf(VICTOR), "create_transaction", send("0.1", "viewer"))).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Tool create_transaction not found/),
    });
    // Nor any resource (reads outside the tools), and the instructions name each person's operator.
    // (Asked on the wire: the SDK's listResourceTemplates answers [] without asking a server that declares no resources.)
    await expect((await sessionOf(MALLORY)).request({ method: "resources/templates/list", params: {} })).rejects.toThrow(/Method not found/);
    expect((await (await sessionOf(VICTOR)).listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
    expect((await sessionOf(SAM)).getInstructions()).toMatch(/acting as API operator staking-bot/);
    expect((await sessionOf(ALICE)).getInstructions()).toMatch(/acting as API operator treasury-bot/);
    await expect(call(await sessionOf(MALLORY), "list_accounts", {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Tool list_accounts not found/),
    });
  });

  it("serves a resource only where its tool is allowed: a role's tool list cannot be read around", async () => {
    team = testContext(emulator, {
      policy: {
        roles: [
          { name: "health", when: { subjects: ["hc"] }, tools: { allow: ["health_check"] } },
          { name: "no-transactions", when: { subjects: ["nt"] }, tools: { deny: ["get_transaction"] } },
        ],
      },
    });
    const templates = async (subject: string) =>
      (await (await sessionOf(person(subject))).request({ method: "resources/templates/list", params: {} })).resourceTemplates
        .map((template) => template.name)
        .sort();
    await expect(templates("hc")).rejects.toThrow(/Method not found/);
    expect(await templates("nt")).toEqual(["account", "ethereum_stakes", "solana_stake", "solana_stakes"]);
    await expect((await sessionOf(person("nt"))).readResource({ uri: "custody://transactions/1" })).rejects.toThrow(/not found/i);
  });

  it("prepares for the person who asked, as their role's operator, and names them on every record of the write", async () => {
    const alice = await sessionOf(ALICE);
    const dry = await call(alice, "create_transaction", send("0.5", "alice pays"));
    expect(dry.structured.status, dry.text).toBe("dry_run");
    expect(dry.text).toContain(
      'Prepared for <untrusted field="prepared_for">Alice Martin <alice@example.com> (subject ' +
        "alice, via client treasury-desk)</untrusted>, as operator treasury-bot.",
    );
    expect(dry.structured.prepared_for).toEqual({ subject: "alice", name: "Alice Martin", email: "alice@example.com", client: "treasury-desk" });
    const confirmed = await call(alice, "create_transaction", { ...send("0.5", "alice pays"), confirmation_token: dry.token });
    expect(confirmed.structured.status, confirmed.text).toBe("submitted");
    const reference = dry.structured.reference as string;
    expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);

    const records = auditRecords().filter((record) => record.details?.reference === reference || record.event === "dry_run");
    expect(records.map((record) => record.event)).toEqual(expect.arrayContaining(["dry_run", "confirmed", "reserved", "submitted"]));
    for (const record of records)
      expect(record.person, record.event).toEqual({ subject: "alice", name: "Alice Martin", email: "alice@example.com", client: "treasury-desk" });
    for (const record of records) expect(record.operator).toBe(DEMO.treasuryBot);
  });

  it("counts a transfer once against the team when one person creates it and another approves it (four eyes)", async () => {
    const account = await accountNamed(emulator, DEMO.solTreasury);
    const bots = [
      { username: DEMO.treasuryBot, is_api: true },
      { username: DEMO.stakingBot, is_api: true },
    ];
    await control(emulator, "PUT", `/accounts/${account.id}/governance`, {
      ...account.governance_rules,
      transaction: { creators: bots, steps: [{ quorum: 2, approvers: bots }] },
    });
    const alice = await sessionOf(ALICE);
    const sam = await sessionOf(SAM);
    const dry = await call(alice, "create_transaction", send("1.5", "four eyes"));
    const created = await call(alice, "create_transaction", { ...send("1.5", "four eyes"), confirmation_token: dry.token });
    expect(created.structured.status, created.text).toBe("submitted");
    const id = (created.structured.transaction as { id: number }).id;
    // The team has 3 SOL a day; Alice's 1.5 is counted. Sam's approval of it is not a second 1.5.
    const approval = await call(sam, "approve_transaction", { transaction_id: id });
    expect(approval.structured.status, approval.text).toBe("dry_run");
    expect(approval.text).not.toContain("POLICY_TEAM_MAX_PER_DAY");
    const approved = await call(sam, "approve_transaction", { transaction_id: id, confirmation_token: approval.token });
    expect(approved.structured.status, approved.text).toBe("submitted");
    // So the team can still send 1.4 SOL (1.5 + 1.4 < 3), and no more than that.
    const more = await call(sam, "create_transaction", send("1.4", "sam after"));
    expect(more.structured.status, more.text).toBe("dry_run");
    const over = await call(sam, "create_transaction", send("1.6", "sam over"));
    expect(blockingCodes(over.structured)).toEqual(["POLICY_TEAM_MAX_PER_DAY"]);
  });

  it("binds a confirmation to the person who ran its dry run, even for someone of the same role and operator", async () => {
    const dry = await call(await sessionOf(ALICE), "create_transaction", send("0.25", "alice only"));
    expect(dry.structured.status).toBe("dry_run");
    // Bea has Alice's role, so her token names the same tool and operator: only the person tells them apart.
    const stolen = await call(await sessionOf(BEA), "create_transaction", { ...send("0.25", "alice only"), confirmation_token: dry.token });
    // A client that reads only the structure learns why, as from every other refusal.
    expect(stolen.structured).toMatchObject({ status: "refused", reason: "forged" });
    expect(stolen.structured.error).toMatch(/issued for another tool, operator or person than create_transaction as treasury-bot for you/);
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
    const refusal = auditRecords().at(-1);
    expect(refusal).toMatchObject({ event: "refused", person: { subject: "bea" } });
  });

  it("lets nobody else's attempt use up or void a person's dry run: Bea's try and her identical dry run leave Alice's to confirm", async () => {
    const alice = await sessionOf(ALICE);
    const bea = await sessionOf(BEA);
    const dry = await call(alice, "create_transaction", send("0.2", "alice keeps it"));
    expect(dry.structured.status).toBe("dry_run");
    expect((await call(bea, "create_transaction", { ...send("0.2", "alice keeps it"), confirmation_token: dry.token })).structured.status).toBe("refused");
    const beas = await call(bea, "create_transaction", send("0.2", "alice keeps it"));
    expect(beas.structured.status).toBe("dry_run");
    const confirmed = await call(alice, "create_transaction", { ...send("0.2", "alice keeps it"), confirmation_token: dry.token });
    expect(confirmed.structured.status, confirmed.text).toBe("submitted");
    expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
  });

  it("holds each person to their own daily limit and everyone together to the team's", async () => {
    const alice = await sessionOf(ALICE);
    const sam = await sessionOf(SAM);
    const pay = async (client: typeof alice, amount: string, note: string) => {
      const dry = await call(client, "create_transaction", send(amount, note));
      if (dry.structured.status !== "dry_run") return dry;
      return call(client, "create_transaction", { ...send(amount, note), confirmation_token: dry.token });
    };
    expect((await pay(alice, "1.5", "alice one")).structured.status).toBe("submitted");
    // Alice's own limit (2 SOL a day) stops her second write; Sam has none of his own.
    const second = await pay(alice, "1", "alice two");
    expect(second.structured.status).toBe("blocked");
    expect(blockingCodes(second.structured)).toEqual(["POLICY_PERSON_MAX_PER_DAY"]);
    expect(second.text).toMatch(/above role treasury's per-person daily maximum of 2 SOL/);
    expect((await pay(sam, "1", "sam one")).structured.status).toBe("submitted");
    // The team's 3 SOL counts Alice's 1.5 and Sam's 1: Sam's next 0.9 would pass it.
    const over = await pay(sam, "0.9", "sam two");
    expect(over.structured.status).toBe("blocked");
    expect(blockingCodes(over.structured)).toEqual(["POLICY_TEAM_MAX_PER_DAY"]);
    expect(over.text).toMatch(/above the team's daily maximum of 3 SOL/);

    const lines: string[] = [];
    expect(await verifyAuditCommand(team.auditPath, (line) => lines.push(line))).toBe(0);
    expect(lines[1]).toBe("by person:");
    expect(lines.join("\n")).toMatch(/Alice Martin <alice@example.com> \(subject alice, via client treasury-desk\): [0-9]+ records: .* 1 submitted/);
    expect(lines.join("\n")).toMatch(/Sam Staker \(subject sam\): [0-9]+ records: .* 1 submitted/);
  });
});
