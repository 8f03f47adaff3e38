import { existsSync, readFileSync } from "node:fs";
import type { RunningEmulator } from "@custody/emulator";
import { ALL_TOOLS, type AnyTool } from "@custody/mcp-server";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolTour } from "../../mcp-server/test/harness/tool-tour.js";
import { adversarialValue } from "./support/adversarial-values.js";
import { callTool, openMcpSession, startQuietEmulator, transactionCount, type McpSession, type ToolAnswer } from "./support/mcp-workspace.js";
import { recordFigures } from "./support/reliability-figures.js";
import { SCALE, TEST_TIMEOUT_MS } from "./support/reliability-scale.js";

// Every tool, through a real MCP client in memory, with arbitrary and adversarial arguments:
// no crash, no unhandled rejection, nothing written, and each invalid input refused with an
// error that names the field.

/** What an answer must never show: JavaScript internals instead of a message for a person. */
const INTERNALS = /TypeError|ReferenceError|SyntaxError|RangeError: Invalid|Cannot read propert|is not a function|undefined is not|\[object Object\]|\n\s+at /;

let emulator: RunningEmulator;
const sessions = new Map<string, McpSession>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let baseArgs: Map<string, { args: Record<string, unknown>; operator: string }>;
let transactionsBefore = 0;

const figures = {
  calls: 0,
  schemaInvalid: 0,
  schemaInvalidNamingField: 0,
  schemaValidErrors: 0,
  schemaValidErrorsNamingField: 0,
  /** Calls carrying keys the tool does not declare: every one refused by the (strict) input schema, naming a key. */
  unknownKeysRefused: 0,
  protocolErrors: 0,
  examples: [] as { tool: string; args: string; answer: string }[],
  corpus: [] as { tool: string; field: string; answer: string }[],
};

function toolNamed(name: string): AnyTool {
  const tool = ALL_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

function messageOf(answer: ToolAnswer): string {
  return answer.protocolError ?? (typeof answer.structured.error === "string" ? `${answer.structured.error}\n${answer.text}` : answer.text);
}

/** The answer to one call, checked against the properties every call must have. */
async function fuzzCall(tool: AnyTool, args: Record<string, unknown>, operator: string): Promise<void> {
  const session = sessions.get(operator) as McpSession;
  const answer = await callTool(session.client, tool.name, args);
  figures.calls += 1;
  if (answer.protocolError !== null) figures.protocolErrors += 1;
  const message = messageOf(answer);
  const shown = () => `${tool.name}(${JSON.stringify(args).slice(0, 300)}) -> ${message.slice(0, 400)}`;
  expect(message.trim().length, shown()).toBeGreaterThan(0);
  expect(message, shown()).not.toMatch(INTERNALS);
  const declared = Object.keys(tool.input.shape);
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    figures.schemaInvalid += 1;
    expect(answer.isError, shown()).toBe(true);
    // An unknown key is reported at the object (path []), with the keys: the answer must name one of them.
    const unknownKeys = parsed.error.issues.flatMap((issue) => (issue.code === "unrecognized_keys" ? issue.keys : []));
    const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))].filter((field) => field !== "");
    const named = fields.some((field) => message.includes(field)) || unknownKeys.some((key) => message.includes(JSON.stringify(key)));
    if (named) figures.schemaInvalidNamingField += 1;
    if (unknownKeys.length > 0) figures.unknownKeysRefused += 1;
    expect(named, `${shown()}\nshould name one of ${[...fields, ...unknownKeys.map((key) => JSON.stringify(key))].join(", ")}`).toBe(true);
    return;
  }
  expect(
    Object.keys(args).filter((key) => !declared.includes(key)),
    `${shown()}: keys the tool does not declare were accepted`,
  ).toEqual([]);
  // A write blocked by its checks is an answer about the workspace, not about the input: its checks name the rule.
  if (answer.isError && answer.structured.status !== "blocked") {
    figures.schemaValidErrors += 1;
    const namesField = declared.some((field) => message.includes(field));
    if (namesField) figures.schemaValidErrorsNamingField += 1;
    else if (figures.examples.length < 20) figures.examples.push({ tool: tool.name, args: JSON.stringify(args).slice(0, 200), answer: message.slice(0, 300) });
    // A well-formed reference to something that does not exist is answered by the service (404),
    // which names the resource; anything else must name the field.
    expect(namesField || /HTTP 4\d\d|does not exist|not found|no account/i.test(message), `${shown()}\nshould name the field or the missing resource`).toBe(
      true,
    );
  }
}

/** Arguments: an arbitrary object, or the tool's valid call with one field replaced, removed or added. */
function argsFor(tool: AnyTool, base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const declared = Object.keys(tool.input.shape);
  const key = fc.oneof(fc.constantFrom(...(declared.length > 0 ? declared : ["x"])), fc.string({ maxLength: 12 }));
  const arbitrary = fc.dictionary(key, adversarialValue, { maxKeys: 6 });
  const replaced =
    declared.length === 0 ? arbitrary : fc.tuple(fc.constantFrom(...declared), adversarialValue).map(([field, value]) => ({ ...base, [field]: value }));
  const removed =
    declared.length === 0
      ? arbitrary
      : fc.constantFrom(...declared).map((field) => Object.fromEntries(Object.entries(base).filter(([name]) => name !== field)));
  const typo = fc
    .tuple(fc.constantFrom("ammount", "max_fee", "confirmationToken", "acount", "unti"), adversarialValue)
    .map(([field, value]) => ({ ...base, [field]: value }));
  return fc.oneof({ weight: 2, arbitrary }, { weight: 4, arbitrary: replaced }, { weight: 1, arbitrary: removed }, { weight: 1, arbitrary: typo });
}

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  emulator = await startQuietEmulator();
  for (const operator of ["treasury-bot", "staking-bot"])
    sessions.set(operator, await openMcpSession(emulator, { operator, retry: { retries: 1, baseDelayMs: 5 } }));
  baseArgs = new Map((await toolTour(emulator)).map((step) => [step.tool, { args: step.args, operator: step.operator }]));
  transactionsBefore = await transactionCount(emulator);
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  for (const session of sessions.values()) await session.close();
  await emulator?.close();
});

describe("fuzzing every tool", () => {
  it(
    `answers ${SCALE.fuzzRunsPerTool} arbitrary and adversarial calls per tool without a crash, naming the field of each invalid input`,
    async () => {
      const names = (await (sessions.get("treasury-bot") as McpSession).client.listTools()).tools.map((tool) => tool.name);
      expect(names.sort()).toEqual(ALL_TOOLS.map((tool) => tool.name).sort());
      for (const name of names) {
        const tool = toolNamed(name);
        const base = baseArgs.get(name) ?? { args: {}, operator: "treasury-bot" };
        await fc.assert(
          fc.asyncProperty(argsFor(tool, base.args), (args) => fuzzCall(tool, args, base.operator)),
          { numRuns: SCALE.fuzzRunsPerTool },
        );
      }
      const health = await callTool((sessions.get("treasury-bot") as McpSession).client, "health_check");
      expect(health.structured.status).toBe("OK");
    },
    TEST_TIMEOUT_MS,
  );

  const send = { account: "sol-treasury", recipient: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", amount: "0.5", unit: "SOL" };
  const corpus: { tool: string; args: Record<string, unknown>; field: string }[] = [
    { tool: "create_transaction", args: { ...send, amount: "abc" }, field: "amount" },
    { tool: "create_transaction", args: { ...send, amount: "-1" }, field: "amount" },
    { tool: "create_transaction", args: { ...send, amount: "1e5" }, field: "amount" },
    { tool: "create_transaction", args: { ...send, amount: "1,5" }, field: "amount" },
    { tool: "create_transaction", args: { ...send, amount: "0.0000000001" }, field: "amount" },
    { tool: "create_transaction", args: { ...send, amount: 1.5 }, field: "amount" },
    { tool: "create_transaction", args: { ...send, unit: "XYZ" }, field: "unit" },
    { tool: "create_transaction", args: { ...send, unit: "DOT" }, field: "unit" },
    { tool: "create_transaction", args: { ...send, max_fees: "0.01" }, field: "max_fees_unit" },
    { tool: "create_transaction", args: { ...send, max_fees_unit: "SOL" }, field: "max_fees_unit" },
    { tool: "create_transaction", args: { ...send, max_fees: "ten", max_fees_unit: "SOL" }, field: "max_fees" },
    { tool: "create_transaction", args: { ...send, account: "" }, field: "account" },
    { tool: "create_transaction", args: { ...send, account: -3 }, field: "account" },
    { tool: "create_transaction", args: { ...send, account: 1.5 }, field: "account" },
    { tool: "create_transaction", args: { ...send, account: "no-such-account" }, field: "account" },
    { tool: "create_transaction", args: { ...send, account: true }, field: "account" },
    { tool: "create_transaction", args: { ...send, speed: "TURBO" }, field: "speed" },
    { tool: "create_transaction", args: { ...send, note: "n".repeat(501) }, field: "note" },
    { tool: "create_transaction", args: { ...send, confirmation_token: "garbage" }, field: "confirmation_token" },
    { tool: "create_transaction", args: { ...send, recipient: undefined }, field: "recipient" },
    // Unknown keys are refused, each named (quoted: "max_fees" contains "max_fee").
    { tool: "create_transaction", args: { ...send, max_fee: "0.01" }, field: '"max_fee"' },
    { tool: "create_transaction", args: { ...send, confirmationToken: "v1.x.y" }, field: '"confirmationToken"' },
    { tool: "health_check", args: { verbose: true }, field: '"verbose"' },
    { tool: "get_transaction", args: { transaction_id: 1.5 }, field: "transaction_id" },
    { tool: "get_transaction", args: { transaction_id: "7" }, field: "transaction_id" },
    { tool: "get_transaction", args: { transaction_id: -7 }, field: "transaction_id" },
    { tool: "get_request_status", args: { transaction_id: 1, request_id: 1 }, field: "request_id" },
    { tool: "list_accounts", args: { page: 0 }, field: "page" },
    { tool: "list_accounts", args: { page_size: 5000 }, field: "page_size" },
    { tool: "search_transactions", args: { status: "DONE" }, field: "status" },
    { tool: "search_transactions", args: { label: "" }, field: "label" },
    { tool: "create_operator", args: { name: "has space" }, field: "name" },
    { tool: "polkadot_unbond", args: { account: "dot-staking", amount: "1", unit: "SOL" }, field: "unit" },
    { tool: "polkadot_bond_extra", args: { account: "dot-staking", amount: "0.00000000001", unit: "DOT" }, field: "amount" },
    {
      tool: "ethereum_stake",
      args: { account: "eth-staking", contract: "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270", contract_data: "0x00", amount: "32", unit: "DOT" },
      field: "unit",
    },
    { tool: "estimate_fees", args: { account: "sol-treasury", amount: "x", unit: "SOL", recipient: send.recipient }, field: "amount" },
    { tool: "solana_split_stake", args: { account: "sol-treasury", stake_uid: "x", amount: "-0.5", unit: "SOL" }, field: "amount" },
  ];

  it.each(corpus)("$tool refuses an invalid $field, naming it", async ({ tool, args, field }) => {
    const answer = await callTool((sessions.get("treasury-bot") as McpSession).client, tool, args);
    figures.corpus.push({ tool, field, answer: messageOf(answer).split("\n")[0]?.slice(0, 240) ?? "" });
    expect(answer.isError, JSON.stringify(answer)).toBe(true);
    expect(messageOf(answer)).toContain(field);
    expect(messageOf(answer)).not.toMatch(INTERNALS);
  });

  it("wrote nothing: no transaction, and no write reached the workspace in the audit logs", async () => {
    expect(await transactionCount(emulator)).toBe(transactionsBefore);
    for (const session of sessions.values()) {
      const events = (existsSync(session.auditPath) ? readFileSync(session.auditPath, "utf8") : "")
        .trim()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { event: string; tool: string });
      // create_operator (module records, no money, no token) is the only tool allowed to act on its own.
      expect(events.filter((event) => (event.event === "submitted" || event.event === "confirmed") && event.tool !== "create_operator")).toEqual([]);
    }
    expect(unhandled).toEqual([]);
    recordFigures("tool-fuzz", { tools: ALL_TOOLS.length, runsPerTool: SCALE.fuzzRunsPerTool, unhandledRejections: unhandled.length, ...figures });
  });
});
