import type { RunningEmulator } from "@custody/emulator";
import { newLocalSecret } from "@custody/shared";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../../packages/emulator/test/support/raw-request.js";
import { startQuietEmulator } from "./support/mcp-workspace.js";
import { recordFigures } from "./support/reliability-figures.js";
import { SCALE, TEST_TIMEOUT_MS } from "./support/reliability-scale.js";

// The emulator's front door under arbitrary Host, Origin, key and Content-Type headers, on writes
// of the service (a send) and of the control plane (the clock, an account): each request is refused by the first rule it breaks,
// with that rule's status and name, and a refused request changes nothing.

/** A header value and whether the door lets it pass; undefined means the header is not sent. */
interface Variant {
  value: string | undefined;
  passes: boolean;
}

type Refusal = "HostNotAllowed" | "OriginNotAllowed" | "EmulatorKeyRequired" | "EmulatorKeyWrong" | "UnsupportedMediaType";

const STATUS: Record<Refusal, number> = {
  HostNotAllowed: 403,
  OriginNotAllowed: 403,
  EmulatorKeyRequired: 401,
  EmulatorKeyWrong: 403,
  UnsupportedMediaType: 415,
};

let emulator: RunningEmulator;
const key = newLocalSecret();
let port = 0;
let served = 0;
const refused: Record<Refusal, number> = { HostNotAllowed: 0, OriginNotAllowed: 0, EmulatorKeyRequired: 0, EmulatorKeyWrong: 0, UnsupportedMediaType: 0 };

const pass = (value: string | undefined): Variant => ({ value, passes: true });
const fail = (value: string | undefined): Variant => ({ value, passes: false });

// Variants that pass are weighted up, so that a fair share of requests gets through every rule.
function hosts(): fc.Arbitrary<Variant> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(pass(`127.0.0.1:${port}`), pass(`localhost:${port}`), pass(`LocalHost:${port}`), pass(`[::1]:${port}`)) },
    fc.constantFrom(
      fail("127.0.0.1"),
      fail(`127.0.0.1:${port + 1}`),
      fail(`127.0.0.2:${port}`),
      fail(`localhost.evil.example:${port}`),
      fail(`0.0.0.0:${port}`),
    ),
    fc.domain().map((domain) => fail(`${domain}:${port}`)),
  );
}

function origins(): fc.Arbitrary<Variant> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        pass(undefined),
        pass(undefined),
        pass(`http://localhost:${port}`),
        pass(`http://127.0.0.1:${port}`),
        pass(`http://[::1]:${port}`),
      ),
    },
    fc.constantFrom(fail("null"), fail(`https://127.0.0.1:${port}`), fail(`http://localhost:${port + 1}`), fail("http://localhost"), fail("file://")),
    fc.domain().map((domain) => fail(`https://${domain}`)),
  );
}

/** The key: right, absent (401) or wrong (403). */
function keys(): fc.Arbitrary<{ value: string | undefined; refusal: Refusal | null }> {
  return fc.constantFrom(
    { value: key, refusal: null },
    { value: key, refusal: null },
    { value: key, refusal: null },
    { value: key, refusal: null },
    { value: undefined, refusal: "EmulatorKeyRequired" as const },
    { value: newLocalSecret(), refusal: "EmulatorKeyWrong" as const },
    { value: `${key}x`, refusal: "EmulatorKeyWrong" as const },
    { value: key.slice(1), refusal: "EmulatorKeyWrong" as const },
  );
}

function contentTypes(): fc.Arbitrary<Variant> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        pass("application/json"),
        pass("application/json; charset=utf-8"),
        pass("Application/JSON;charset=UTF-8"),
        pass('application/json; charset="utf-8"'),
      ),
    },
    fc.constantFrom(
      fail(undefined),
      fail("text/plain"),
      fail("text/plain;charset=UTF-8"),
      fail("application/x-www-form-urlencoded"),
      fail("multipart/form-data; boundary=x"),
      fail("application/json; charset=latin1"),
      fail("application/jsonp"),
      fail("application/json; x=1"),
    ),
    fc
      .stringMatching(/^[a-z]{1,10}\/[a-z.+-]{1,12}$/)
      .filter((type) => type !== "application/json")
      .map((type) => fail(type)),
  );
}

type WriteKind = "advance the clock" | "create an account" | "send";

/** A Solana address outside the workspace. */
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

let written = 0;

/** A write that changes the workspace when served: through the control plane or the service. */
function write(kind: WriteKind): { url: string; headers: Record<string, string>; body: string } {
  const name = `door-${(written += 1)}`;
  switch (kind) {
    case "advance the clock":
      return { url: `${emulator.controlUrl}/clock/advance`, headers: {}, body: JSON.stringify({ seconds: 60 }) };
    case "create an account":
      return {
        url: `${emulator.controlUrl}/accounts`,
        headers: {},
        body: JSON.stringify({ name, currency: "polkadot", governance: { transaction: { creators: [], steps: [] }, staking: null, smart_contract: null } }),
      };
    case "send": {
      const send = {
        account_name: "sol-treasury",
        recipient: RECIPIENT,
        amount: { value: "1000", unit: "lamport" },
        max_fees: { value: "7500", unit: "lamport" },
        speed: "NORMAL",
        note: { title: name, content: "door fuzz" },
      };
      return { url: `${emulator.baseUrl}/transactions`, headers: { "x-vendor-api-user": "treasury-bot" }, body: JSON.stringify(send) };
    }
  }
}

/** What a served write changes: the control plane's account and transaction counts and its clock offset. */
async function fingerprint(): Promise<string> {
  const summary = (await rawRequest(`${emulator.controlUrl}/`, "GET", { host: `127.0.0.1:${port}`, "x-emulator-key": key })).body as {
    accounts: number;
    transactions: number;
    clock: { offset_ms: number };
  };
  return JSON.stringify([summary.accounts, summary.transactions, summary.clock.offset_ms]);
}

beforeAll(async () => {
  emulator = await startQuietEmulator({ key, seed: "demo" });
  port = Number(new URL(emulator.baseUrl).port);
});

afterAll(async () => {
  await emulator?.close();
});

describe("fuzzing the emulator's front door", () => {
  it(
    `answers ${SCALE.fuzzRunsPerTool * 8} writes with arbitrary Host, Origin, key and ` +
      "Content-Type by the first rule each breaks, and a refused one changes nothing",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          hosts(),
          origins(),
          keys(),
          contentTypes(),
          fc.constantFrom<WriteKind>("advance the clock", "create an account", "send"),
          async (host, origin, keyed, contentType, kind) => {
            const request = write(kind);
            const headers: Record<string, string> = { ...request.headers };
            if (host.value !== undefined) headers.host = host.value;
            if (origin.value !== undefined) headers.origin = origin.value;
            if (keyed.value !== undefined) headers["x-emulator-key"] = keyed.value;
            if (contentType.value !== undefined) headers["content-type"] = contentType.value;
            const expected: Refusal | null = !host.passes
              ? "HostNotAllowed"
              : !origin.passes
                ? "OriginNotAllowed"
                : (keyed.refusal ?? (contentType.passes ? null : "UnsupportedMediaType"));
            const before = await fingerprint();
            const answer = await rawRequest(request.url, "POST", headers, request.body);
            const shown = `${kind}: ${JSON.stringify(headers)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
            if (expected === null) {
              served += 1;
              expect(answer.status, shown).toBe(200);
              expect(await fingerprint(), shown).not.toBe(before);
              return;
            }
            refused[expected] += 1;
            expect(answer.status, shown).toBe(STATUS[expected]);
            expect((answer.body as { name?: string }).name, shown).toBe(expected);
            expect(answer.text, shown).not.toContain(key);
            expect(await fingerprint(), shown).toBe(before);
          },
        ),
        { numRuns: SCALE.fuzzRunsPerTool * 8 },
      );
      expect(served).toBeGreaterThan(0);
      for (const [name, count] of Object.entries(refused)) expect(count, `no request was refused with ${name}`).toBeGreaterThan(0);
      // An HTTP/1.1 request without Host never reaches the door: node:http answers it 400 itself.
      expect(
        (await rawRequest(`${emulator.controlUrl}/clock/advance`, "POST", { "x-emulator-key": key, "content-type": "application/json" }, "{}")).status,
      ).toBe(400);
      recordFigures("door-fuzz", { requests: SCALE.fuzzRunsPerTool * 8, served, refused });
    },
    TEST_TIMEOUT_MS,
  );
});
