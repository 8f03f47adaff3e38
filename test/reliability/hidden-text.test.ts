import type { RunningEmulator } from "@custody/emulator";
import { CustodyClient } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control } from "../contract/emulator-harness.js";
import { callTool, openMcpSession, startQuietEmulator, transactionCount, type McpSession, type ToolAnswer } from "./support/mcp-workspace.js";
import { recordFigures } from "./support/reliability-figures.js";
import { SOAK, TEST_TIMEOUT_MS } from "./support/reliability-scale.js";

// A corpus of invisible, bidirectional and tag characters written into every workspace text the
// control plane and the API let anyone set (account names, a rename, note titles and contents,
// rejection reasons, operator names, and through those the service's error bodies), then every
// answer of the read tools, of dry runs, of errors quoting them, and the resources, checked to
// carry none of them raw: each is dropped (controls) or shown as a visible escape.

/** Controls, format characters, separators, fillers, variation selectors, tags: the corpus, by range. */
const RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008],
  [0x000b, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];
const CORPUS = RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, at) => String.fromCodePoint(from + at)));
const RAW = new RegExp(`[${RANGES.map(([from, to]) => `\\u{${from.toString(16)}}-\\u{${to.toString(16)}}`).join("")}]`, "u");
/** Code points per payload: each character between two letters, so that each shows as its own escape. */
const CHUNK = SOAK ? 8 : 64;

/** C0 and C1 controls: dropped from what is shown, not escaped. */
function isControl(character: string): boolean {
  const codePoint = character.codePointAt(0) ?? 0;
  return codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, at) => items.slice(at * size, at * size + size));
}

const payloads = chunks(CORPUS, CHUNK).map((characters, index) => `hidden-${index}-${characters.map((character) => `${character}x`).join("")}`);

let emulator: RunningEmulator;
let session: McpSession;
const planted = { accounts: [] as number[], pending: [] as number[], rejected: [] as number[], users: [] as string[] };
const figures = {
  corpusCodePoints: CORPUS.length,
  payloads: payloads.length,
  written: { account_names: 0, account_renames: 0, note_titles: 0, note_contents: 0, rejection_reasons: 0 },
  answersChecked: 0,
  stringsChecked: 0,
  rawFound: 0,
  codePointsShownEscaped: 0,
  errorAnswersQuotingPlantedText: 0,
};
const escapedSeen = new Set<string>();

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) strings(item, out);
  return out;
}

function check(where: string, texts: string[]): void {
  figures.answersChecked += 1;
  for (const text of texts) {
    figures.stringsChecked += 1;
    for (const escape of text.matchAll(/\\u\{([0-9A-F]{4,6})\}/g)) escapedSeen.add(escape[1] as string);
    if (RAW.test(text)) {
      figures.rawFound += 1;
      const at = text.search(RAW);
      expect.fail(`${where}: U+${(text.codePointAt(at) ?? 0).toString(16).toUpperCase()} raw in ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 20))}`);
    }
  }
}

function checkAnswer(where: string, answer: ToolAnswer): void {
  expect(answer.protocolError, where).toBeNull();
  check(where, [answer.text, ...strings(answer.structured)]);
}

beforeAll(async () => {
  emulator = await startQuietEmulator();
  const direct = new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" });
  const solTreasury = (await direct.listAllAccounts()).find((account) => account.name === "sol-treasury");
  if (!solTreasury) throw new Error("the demo workspace lacks sol-treasury");
  const rule = { creators: [{ username: "treasury-bot", is_api: true }], steps: [{ quorum: 1, approvers: [{ username: "dana.approver", is_api: false }] }] };
  for (const [index, payload] of payloads.entries()) {
    const account = (await control(emulator, "POST", "/accounts", {
      name: payload,
      currency: "solana_testnet",
      governance: { transaction: rule, staking: null, smart_contract: null },
      balance: "5000000000",
    })) as { id: number };
    figures.written.account_names += 1;
    planted.accounts.push(account.id);
    if (index === 0) {
      await control(emulator, "PUT", `/accounts/${account.id}/name`, { name: `${payload}-renamed` });
      figures.written.account_renames += 1;
    }
    const sent = await direct.createTransaction({
      account_name: index === 0 ? `${payload}-renamed` : payload,
      amount: "1000",
      max_fees: "7500",
      recipient: solTreasury.address,
      speed: "NORMAL",
      note: { title: payload, content: payload },
    });
    figures.written.note_titles += 1;
    figures.written.note_contents += 1;
    if (index % 2 === 0) {
      planted.pending.push(sent.id);
    } else {
      await control(emulator, "POST", `/transactions/${sent.id}/reject`, { username: "dana.approver", reason: payload });
      figures.written.rejection_reasons += 1;
      planted.rejected.push(sent.id);
    }
    // An operator name: the module creates only printable ASCII ones (a header carries the name; docs/spec-decisions.md), so none
    // holds a planted character. The names are kept to be asked for (create_operator, register_operator): the refusal must not
    // carry them back raw.
    planted.users.push(`u${index}-${[...payload.slice(`hidden-${index}-`.length)].filter((character) => !/\s/.test(character)).join("")}`.slice(0, 120));
  }
  session = await openMcpSession(emulator);
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await session?.close();
  await emulator?.close();
});

describe(`${CORPUS.length} hidden characters planted in every workspace text field`, () => {
  it(
    "reach no answer of the read tools, in text or structured content",
    async () => {
      const before = await transactionCount(emulator);
      checkAnswer("list_accounts", await callTool(session.client, "list_accounts", { page_size: 1000 }));
      checkAnswer("list_users", await callTool(session.client, "list_users", { page_size: 1000 }));
      checkAnswer("search_transactions", await callTool(session.client, "search_transactions", { label: "hidden-", page_size: 1000 }));
      for (const id of planted.accounts) {
        for (const tool of ["get_account", "get_account_balance", "search_transactions", "list_solana_stakes"])
          checkAnswer(`${tool} ${id}`, await callTool(session.client, tool, { account: String(id) }));
      }
      for (const id of [...planted.pending, ...planted.rejected]) {
        for (const tool of ["get_transaction", "get_transaction_history", "get_request_status"])
          checkAnswer(`${tool} ${id}`, await callTool(session.client, tool, { transaction_id: id }));
      }
      expect(await transactionCount(emulator)).toBe(before);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "reach no dry run, and no error that quotes them (names in 'did you mean', the service's error bodies)",
    async () => {
      const before = await transactionCount(emulator);
      const solCold = (await new CustodyClient({ baseUrl: emulator.baseUrl, operator: "treasury-bot" }).listAllAccounts()).find(
        (account) => account.name === "sol-cold",
      );
      for (const id of planted.accounts) {
        const dry = await callTool(session.client, "create_transaction", {
          account: String(id),
          recipient: solCold?.address,
          amount: "0.001",
          unit: "SOL",
          note: "probe",
        });
        expect(["dry_run", "blocked"], dry.text).toContain(dry.structured.status);
        checkAnswer(`create_transaction dry run from ${id}`, dry);
      }
      for (const id of planted.pending)
        checkAnswer(`approve_transaction dry run of ${id}`, await callTool(session.client, "approve_transaction", { transaction_id: id }));
      const nearName = await callTool(session.client, "get_account", { account: "hidden-" });
      expect(nearName.structured.error).toContain("did you mean <untrusted");
      checkAnswer("get_account 'hidden-'", nearName);
      figures.errorAnswersQuotingPlantedText += 1;
      for (const name of planted.users) {
        const refused = await callTool(session.client, "create_operator", { name });
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain("name: must be printable ASCII (it is sent in the X-Vendor-API-User header)");
        checkAnswer(`create_operator ${name.slice(0, 8)}`, refused);
        const wrongUuid = await callTool(session.client, "register_operator", { name, uuid: "00000000-0000-4000-8000-000000000000" });
        expect(wrongUuid.isError).toBe(true);
        checkAnswer(`register_operator ${name.slice(0, 8)}`, wrongUuid);
        figures.errorAnswersQuotingPlantedText += 2;
      }
      expect(await transactionCount(emulator)).toBe(before);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "reach no resource, listed or read",
    async () => {
      const listed = await session.client.listResources();
      check("resources/list", strings(listed));
      for (const id of planted.accounts) {
        const read = await session.client.readResource({ uri: `custody://accounts/${id}` });
        check(`custody://accounts/${id}`, strings(read));
      }
      figures.codePointsShownEscaped = [...escapedSeen].filter((hex) =>
        CORPUS.some((character) => (character.codePointAt(0) ?? 0) === Number.parseInt(hex, 16)),
      ).length;
      // Every planted character that is not a control (controls are dropped) was seen escaped somewhere.
      const shownCharacters = CORPUS.filter((character) => !isControl(character)).length;
      expect(figures.codePointsShownEscaped).toBe(shownCharacters);
      expect(figures.rawFound).toBe(0);
      recordFigures("hidden-text", { ...figures });
    },
    TEST_TIMEOUT_MS,
  );
});
