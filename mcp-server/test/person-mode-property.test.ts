import type { RunningEmulator } from "@custody/emulator";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startHeaderRecorder, type HeaderRecorder } from "../../test/support/header-recorder.js";
import { DEMO } from "./harness/demo-workspace.js";
import { resetWorkspace } from "./harness/control-plane.js";
import { call, connectSession, startTestEmulator, testContext, type TestContext } from "./harness/mcp-harness.js";
import { pageRequest } from "./harness/page-request.js";
import { toolTour } from "./harness/tool-tour.js";
import { connectViewClient } from "./harness/view-host.js";

// The Done-when of issue 20: in person mode a client that only calls tools (no form, no browser)
// cannot cause a send, whatever it passes: every write tool, arguments the schema allows, and every
// string any answer gave it (list_pending_approvals' waiting_for_you among them) fed back as
// reference, confirmation_token, repeat_of or any field, or to the view's app-only decide_write
// (through a client that declares views: the model reads its answers' text and structure, the
// view alone their `_meta`); and
// with plain HTTP on loopback, every confirmation page an answer linked to, posted with any of them
// as the page's secret from the page's own origin. Only the links the server opened in the
// person's browser (captured here) carry the secret, and no answer does.

let emulator: RunningEmulator;
let recorder: HeaderRecorder;

beforeAll(async () => {
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
  recorder = await startHeaderRecorder(emulator.baseUrl);
}, 60_000);
afterAll(async () => {
  await recorder?.close();
  await emulator?.close();
});

/** A POST that creates or approves a transaction (the fee estimate is a read). */
const sends = () =>
  recorder.requests.filter(
    (request) => request.method === "POST" && /\/transactions(\/|$|\?)/.test(request.path) && !request.path.includes("/transactions/fees"),
  );

/** Every string in an answer: its structured values, and the text's words and quoted parts. */
function stringsOf(answer: { structured: unknown; text: string }): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(answer.structured);
  found.push(
    ...answer.text.split(/[\s"'`<>(),;]+/).filter((word) => word.length > 0),
    ...[...answer.text.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string),
  );
  return found;
}

type Property = { type?: string; maxLength?: number; enum?: unknown[] };
type InputSchema = { properties?: Record<string, Property>; required?: string[] };
/** A generated value: a string an answer gave (by index into the pool as it is when the call is made), or one of the schema's own. */
type Drawn = { pool: number } | { value: unknown };

/** Arguments the tool's input schema allows, every string field drawn from the answers so far or made up within its length. */
function argumentsOf(schema: InputSchema): fc.Arbitrary<Record<string, Drawn>> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    let arbitrary: fc.Arbitrary<Drawn>;
    if (property.enum !== undefined) arbitrary = fc.constantFrom(...property.enum).map((value) => ({ value }));
    else if (property.type === "number" || property.type === "integer") arbitrary = fc.integer({ min: 1, max: 1_000_000 }).map((value) => ({ value }));
    else
      arbitrary = fc.oneof(
        fc.nat().map((pool) => ({ pool })),
        fc.string({ maxLength: Math.min(property.maxLength ?? 40, 40) }).map((value) => ({ value })),
      );
    return [name, arbitrary] as const;
  });
  const required = new Set(schema.required ?? []);
  return fc.record(Object.fromEntries(fields), { requiredKeys: [...required] }) as fc.Arbitrary<Record<string, Drawn>>;
}

it("a client that only calls tools cannot cause a send in person mode", async () => {
  const tour = await toolTour(emulator);
  const sessions = new Map<string, Awaited<ReturnType<typeof connectSession>>>();
  /** The same server through a client that shows views (decide_write listed to it). */
  const viewers = new Map<string, Awaited<ReturnType<typeof connectViewClient>>>();
  const contexts: TestContext[] = [];
  const opened: string[] = [];
  for (const operator of [DEMO.treasuryBot, DEMO.stakingBot]) {
    contexts.push(testContext(emulator, { operator, policy: { confirmation: "person" }, baseUrl: recorder.baseUrl, opener: (url) => opened.push(url) }));
    sessions.set(operator, await connectSession(contexts.at(-1)!.ctx));
    viewers.set(operator, await connectViewClient(contexts.at(-1)!.ctx));
  }
  const clientOf = (operator: string, viewed: boolean) => (viewed ? viewers : sessions).get(operator)!.client;
  try {
    const listed = await sessions.get(DEMO.treasuryBot)!.client.listTools();
    const writeTools = new Set(listed.tools.filter((tool) => "reference" in (tool.inputSchema.properties ?? {})).map((tool) => tool.name));
    const writes = tour.filter((entry) => writeTools.has(entry.tool));
    expect(writes.map((entry) => entry.tool).sort()).toEqual([...writeTools].sort());
    const pool = new Set<string>(["cw-00000000000000000000"]);
    // Every dry run first, so the pool holds every reference a model could be given.
    for (const entry of writes) {
      const answer = await call(sessions.get(entry.operator)!.client, entry.tool, entry.args);
      // The demo workspace's state blocks a few (an approval already given): what matters is that none failed.
      expect(["dry_run", "blocked"], `${entry.tool}: ${answer.text}`).toContain(answer.structured.status);
      stringsOf(answer).forEach((text) => pool.add(text));
      stringsOf(await call(clientOf(entry.operator, true), entry.tool, entry.args)).forEach((text) => pool.add(text));
    }
    // The writes waiting for the person, as the model is told them.
    for (const operator of sessions.keys()) {
      const listed = await call(clientOf(operator, false), "list_pending_approvals", {});
      expect((listed.structured.waiting_for_you as unknown[]).length, listed.text).toBeGreaterThan(0);
      stringsOf(listed).forEach((text) => pool.add(text));
    }
    const decideTool = (await clientOf(DEMO.treasuryBot, true).listTools()).tools.find((tool) => tool.name === "decide_write");
    expect(decideTool?.inputSchema.properties).toHaveProperty("token");
    const before = sends().length;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.nat(),
        fc.subarray(["reference", "confirmation_token", "repeat_of", "field"] as const, { minLength: 1 }),
        fc.nat(),
        fc.boolean(),
        async (entry, pick, slots, field, viewed) => {
          const strings = [...pool];
          const fed = (offset: number) => strings[(pick + offset) % strings.length] as string;
          const args: Record<string, unknown> = { ...entry.args };
          slots.forEach((slot, index) => {
            if (slot !== "field") args[slot] = fed(index);
            else {
              const keys = Object.keys(entry.args).filter((key) => typeof entry.args[key] === "string");
              if (keys.length > 0) args[keys[field % keys.length] as string] = fed(index + 7);
            }
          });
          const answer = await call(clientOf(entry.operator, viewed), entry.tool, args);
          stringsOf(answer).forEach((text) => pool.add(text));
          expect(answer.structured.status, answer.text).not.toBe("submitted");
        },
      ),
      { numRuns: 150 },
    );
    // Arguments straight from each tool's input schema, strings from the answers or made up.
    const schemas = [...listed.tools.filter((tool) => writeTools.has(tool.name)), decideTool!].map((tool) => ({
      name: tool.name,
      schema: tool.inputSchema as InputSchema,
    }));
    const operatorOf = new Map(writes.map((entry) => [entry.tool, entry.operator]));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...schemas).chain((tool) => argumentsOf(tool.schema).map((drawn) => ({ tool, drawn }))),
        fc.constantFrom(...sessions.keys()),
        fc.boolean(),
        async ({ tool, drawn }, anyOperator, viewed) => {
          const strings = [...pool];
          const args = Object.fromEntries(
            Object.entries(drawn).map(([name, value]) => [name, "pool" in value ? strings[value.pool % strings.length] : value.value]),
          );
          // The app-only tool, called by a client that shows no view: not its tool (a protocol error, -32602), nothing done.
          const absent = (error: unknown) => {
            if (viewed || tool.name !== "decide_write" || (error as { code?: unknown }).code !== -32602) throw error;
            return null;
          };
          const answer = await call(clientOf(operatorOf.get(tool.name) ?? anyOperator, viewed), tool.name, args).catch(absent);
          if (answer === null) return;
          stringsOf(answer).forEach((text) => pool.add(text));
          expect(answer.structured.status, answer.text).not.toBe("submitted");
        },
      ),
      { numRuns: 150 },
    );
    // Each reference, and anything shaped like a token, with the tool's own arguments: the way a model would submit.
    const handles = [...pool].filter((text) => /^(cw-[0-9a-f]{20}|v2\..+)$/.test(text));
    for (const entry of writes) {
      for (const handle of handles) {
        for (const slot of ["reference", "confirmation_token"])
          stringsOf(await call(sessions.get(entry.operator)!.client, entry.tool, { ...entry.args, [slot]: handle })).forEach((text) => pool.add(text));
        // As the view's token, for the question of any string an answer gave of a digest's length, or none.
        const decide = { tool: entry.tool, token: handle.slice(0, 1024), decision: "confirm" };
        for (const question of ["0".repeat(64), ...[...pool].filter((text) => /^[0-9a-f]{64}$/.test(text))])
          expect((await call(clientOf(entry.operator, true), "decide_write", { ...decide, question })).structured.status).not.toBe("submitted");
      }
    }
    // Each page an answer linked to, read and posted to with every string of the answers and the page as its secret.
    const links = [...new Set([...pool].filter((text) => /^http:\/\/127\.0\.0\.1:[0-9]+\/confirm\//.test(text)))];
    expect(links.length).toBeGreaterThan(0);
    const keys = opened.map((url) => new URL(url).searchParams.get("key") as string);
    expect(keys.length).toBeGreaterThan(0);
    for (const link of links) {
      const page = await pageRequest("GET", link);
      expect(page.text).not.toContain('name="secret"');
      const secrets = [...pool, ...page.text.split(/[\s"'<>=]+/)].filter((text) => /^[A-Za-z0-9_-]{40,48}$/.test(text));
      for (const secret of new Set(secrets)) {
        const posted = await pageRequest("POST", link, new URLSearchParams({ secret, question: secret, decision: "confirm" }).toString(), {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: new URL(link).origin,
        });
        expect(posted.status).toBe(403);
      }
    }
    expect([...pool].filter((text) => keys.some((key) => text.includes(key)))).toEqual([]);
    expect(sends().slice(before)).toEqual([]);
  } finally {
    for (const session of [...sessions.values(), ...viewers.values()]) await session.close();
    for (const context of contexts) await context.ctx.pages.close();
  }
}, 240_000);
