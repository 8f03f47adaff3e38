import { readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import type { ElicitResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyAuditCommand } from "../src/audit/verify-audit-command.js";
import { resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, connectSession, startTestEmulator, testContext } from "./harness/mcp-harness.js";

// The audit's `confirmed` record of the two confirmations the page, view and VS Code tests do not
// make: the client's form and the token alone (token mode, a client that shows no form). It says
// who confirmed (the record's person), when (`at`) and through what (`details.through`), and
// verify-audit sums each person's confirmations by it. Real MCP clients on the emulator.

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

const ACCEPT: ElicitResult = { action: "accept", content: { confirm: true } };
const CARLA = { subject: "carla", name: "Carla Diaz", groups: [], roles: [] };

let sent = 0;
const sendArgs = async (note: string) => ({
  account: DEMO.solTreasury,
  recipient: (await accountNamed(emulator, DEMO.solCold)).address,
  amount: `0.0${(sent += 1).toString().padStart(2, "0")}5`,
  unit: "SOL",
  note,
});

it("records who confirmed, when and through the form or the token alone, and verify-audit sums them per person", async () => {
  const { ctx, auditPath, clock } = testContext(emulator);
  const form = await connectSession(ctx, () => ACCEPT);
  const tokenOnly = await connectSession(ctx);
  const carla = await connectSession(ctx, () => ACCEPT, CARLA);
  const references: string[] = [];
  try {
    for (const [session, note] of [
      [form, "through the form"],
      [tokenOnly, "through the token"],
      [carla, "carla's form"],
      [tokenOnly, "through the token again"],
    ] as const) {
      const args = await sendArgs(note);
      const dry = await call(session.client, "create_transaction", args);
      const confirmed = await call(session.client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      references.push(dry.structured.reference as string);
    }
    for (const reference of references) expect(await transactionsWithLabel(emulator, reference)).toHaveLength(1);
    const records = readFileSync(auditPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; at: string; person?: { subject: string }; details?: { through?: string; reference?: string } });
    const confirmed = records.filter((record) => record.event === "confirmed");
    expect(confirmed.map((record) => [record.details?.reference, record.person?.subject ?? null, record.details?.through])).toEqual([
      [references[0], null, "form"],
      [references[1], null, "token"],
      [references[2], "carla", "form"],
      [references[3], null, "token"],
    ]);
    for (const record of confirmed) expect(record.at).toBe(clock.now().toISOString());
    const lines: string[] = [];
    expect(await verifyAuditCommand(auditPath, (line) => lines.push(line))).toBe(0);
    expect(lines.find((line) => line.startsWith("  not signed in"))).toMatch(/; confirmed through 2 token, 1 form$/);
    expect(lines.find((line) => line.includes("(subject carla)"))).toMatch(/^ {2}Carla Diaz .*; confirmed through 1 form$/);
  } finally {
    await form.close();
    await tokenOnly.close();
    await carla.close();
  }
});
