import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/kinds/registry.js";
import { localText, renderText } from "../../src/l10n/translate.js";
import { asShownInDryRun, sealIntent, sealRequest } from "../../src/write-road/intent-seal.js";
import { SealedIntent } from "../../src/write-road/road-types.js";
import { waitingWrites } from "../../src/write-road/waiting-writes.js";
import { keptRequest } from "../../src/write-road/kept-request.js";
import { plannedSend, sealedFor } from "./planned-write-fixture.js";
import { SOLANA_RECIPIENT, SOLANA_VALIDATOR } from "../currency-fixtures.js";

const send: WriteRequest = { kind: "send", account: "ops", amount: 1_000_000n, recipient: SOLANA_RECIPIENT, speed: "NORMAL" };
const stake: WriteRequest = { kind: "solana_create_stake", account: "ops", amount: 5_000_000_000n, validator: SOLANA_VALIDATOR };

describe("sealing a dry run and confirming it", () => {
  it("keeps what the confirmation must rebuild: the reference, the proposed cap, the target, the figures shown", () => {
    const plan = plannedSend();
    const sealed = sealIntent(plan, {
      nonce: "a".repeat(32),
      fingerprint: "b".repeat(64),
      digest: "c".repeat(64),
      expires_at: 99,
      person: "alice",
      service: "https://custody.example",
      similar: [5],
      keepRequest: false,
    });
    expect(sealed).toMatchObject({
      correlation_id: "ref-1",
      max_fees: "10000",
      account_id: 7,
      transaction_id: null,
      tool: "create_transaction",
      person: "alice",
      service: "https://custody.example",
      fee: "5000",
      similar: [5],
    });
    expect(sealed.balances).toEqual([{ name: "available_balance", before: "10000000", after: "9000000" }]);
    expect(sealed.fields?.amount).toMatch(/^[0-9a-f]{16}$/);
    expect("request" in sealed).toBe(false);
  });

  it("keeps what moves in English and as its template, read back for the lists only while the two agree; a text out of bounds is dropped", async () => {
    const plan = plannedSend();
    const seal = { nonce: "a".repeat(32), fingerprint: "b".repeat(64), digest: "c".repeat(64), expires_at: 99, person: null, service: "s" };
    const sealed = sealIntent(plan, { ...seal, similar: [], keepRequest: false });
    expect(sealed.moves).toMatch(/^Send funds from account \d+: .*; account \d+ is named “.*”\.$/);
    expect(renderText(sealed.moves_text ?? localText(""))).toBe(sealed.moves);
    const read = SealedIntent.parse(JSON.parse(JSON.stringify(sealed)));
    expect(read.moves_text).toEqual(sealed.moves_text);
    const listed = (stored: object) =>
      waitingWrites(
        { waitingIntents: () => Promise.resolve([{ nonce: seal.nonce, sealed: JSON.stringify(stored), expires_at: 99 }]) },
        { operator: "o", person: null, service: "s" },
        1,
      );
    expect((await listed(sealed))[0]?.moves_text).toEqual(sealed.moves_text);
    // A text that says something else than the English recorded beside it is not shown.
    expect((await listed({ ...sealed, moves_text: localText("nothing moves") }))[0]?.moves_text).toBeNull();
    const outOfBounds = { ...sealed, moves_text: { template: "x".repeat(5000), args: [] } };
    expect(SealedIntent.parse(outOfBounds).moves_text).toBeUndefined();
    expect((await listed(outOfBounds))[0]).toMatchObject({ moves: sealed.moves, moves_text: null });
  });

  it("keeps the request itself only for a derived nonce, its amounts as digits", () => {
    const plan = plannedSend();
    const sealed = sealIntent(plan, {
      nonce: "a".repeat(32),
      fingerprint: "b".repeat(64),
      digest: "c".repeat(64),
      expires_at: 99,
      person: null,
      service: "https://custody.example",
      similar: [],
      keepRequest: true,
    });
    expect(sealed.request).toMatchObject({ kind: "send", amount: "1000000" });
    expect(keptRequest(sealed.request)).toEqual(plan.request);
  });

  it("a confirmation plans with the dry run's reference, and with its proposed max_fees when the spec proposes one and the person named none", () => {
    const sealed = sealedFor(plannedSend(), { max_fees: "10000" });
    expect(sealRequest(send, sealed)).toEqual({ ...send, correlation_id: "ref-1", max_fees: 10_000n });
    expect(sealRequest({ ...send, max_fees: 20_000n } as WriteRequest, sealed)).toEqual({ ...send, correlation_id: "ref-1", max_fees: 20_000n });
    expect(sealRequest(send, { ...sealed, max_fees: null })).toEqual({ ...send, correlation_id: "ref-1" });
    // A kind whose spec proposes no cap never gets one, whatever the intent holds.
    expect(sealRequest(stake, sealed)).toEqual({ ...stake, correlation_id: "ref-1" });
  });

  it("the person is asked with the dry run's figures, not a fresh estimate", () => {
    const fresh = plannedSend({ fee: { unknown: "the estimate failed" }, proposed_max_fees: 30_000n });
    const shown = asShownInDryRun(
      fresh,
      sealedFor(fresh, { max_fees: "10000", fee: "5000", balances: [{ name: "available_balance", before: "8", after: "2" }] }),
    );
    expect(shown.proposed_max_fees).toBe(10_000n);
    expect(shown.fee).toEqual({ estimated: { base_units: "5000", display: "0.000005", unit: "SOL" } });
    expect(shown.balances).toEqual([
      {
        name: "available_balance",
        before: { base_units: "8", display: "0.000000008", unit: "SOL" },
        after: { base_units: "2", display: "0.000000002", unit: "SOL" },
      },
    ]);
    expect(asShownInDryRun(fresh, sealedFor(fresh))).toEqual(fresh);
  });
});
