import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditSealKey, FileGuardStore } from "../../src/index.js";
import { FileIntents } from "../../src/guard-store/file-intents.js";

const MINUTE_MS = 60_000;

/** Every file under the folder, with its size. */
function filesUnder(dir: string): { path: string; size: number }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, size: statSync(path).size }));
}

const intent = (index: number, expiresAt: number) => ({
  fingerprint: `f-${index}`.padEnd(64, "0"),
  nonce: index.toString(16).padStart(32, "0"),
  operator: "alice_ops",
  expires_at: expiresAt,
  sealed: JSON.stringify({ index, body: "x".repeat(900) }),
});

describe("the file store's intents", () => {
  it("keep each open dry run in files of its own: a dry run writes its entry, never the others (2,000 open)", () => {
    let now = Date.parse("2026-06-01T12:00:00Z");
    const dir = join(mkdtempSync(join(tmpdir(), "intents-")), "audit.jsonl.intents");
    const intents = new FileIntents(dir, () => new Date(now));
    for (let index = 0; index < 2000; index += 1) intents.prepare(intent(index, now + 5 * MINUTE_MS));
    // No file holds more than one dry run (about 1 KB each): nothing is rewritten whole as they grow.
    expect(Math.max(...filesUnder(dir).map((file) => file.size))).toBeLessThan(2048);
    expect(intents.redeem(intent(1234, 0).nonce)).toMatchObject({ outcome: "redeemed" });
    expect(intents.redeem(intent(1234, 0).nonce)).toEqual({ outcome: "reused", reference: null });
    intents.link(intent(1234, 0).nonce, "cw-1234");
    expect(intents.redeem(intent(1234, 0).nonce)).toEqual({ outcome: "reused", reference: "cw-1234" });
    // A newer dry run of the same intent voids the older one.
    intents.prepare({ ...intent(99, now + 6 * MINUTE_MS), nonce: "f".repeat(32) });
    expect(intents.redeem(intent(99, 0).nonce)).toEqual({ outcome: "superseded", by_expires_at: now + 6 * MINUTE_MS });

    // Once the minute they expire in is past, what expired is removed by the next change (which is then of a nonce unknown).
    now += 6 * MINUTE_MS;
    expect(intents.redeem(intent(5, 0).nonce)).toEqual({ outcome: "unknown" });
    now += MINUTE_MS;
    intents.prepare(intent(5000, now + 5 * MINUTE_MS));
    const left = filesUnder(dir)
      .map((file) => file.path.slice(dir.length + 1))
      .filter((path) => !path.startsWith("expiry"));
    expect(left.filter((path) => path.startsWith("prepared"))).toEqual([join("prepared", intent(5000, 0).nonce)]);
    expect(left.filter((path) => path.startsWith("latest"))).toHaveLength(1);
    expect(left.filter((path) => path.startsWith("used"))).toEqual([]);
  });

  it(
    "list a person's waiting dry runs from their markers alone: a used one's marker goes at once, " +
      "an expired one's with its minute (1,000 token-mode dry runs beside them)",
    () => {
      let now = Date.parse("2026-06-01T12:00:00Z");
      const dir = join(mkdtempSync(join(tmpdir(), "intents-")), "audit.jsonl.intents");
      const intents = new FileIntents(dir, () => new Date(now));
      for (let index = 0; index < 1000; index += 1) intents.prepare(intent(index, now + 5 * MINUTE_MS));
      const single = { operator: "alice_ops", person: null };
      intents.prepare({ ...intent(5000, now + 5 * MINUTE_MS), waiting_for: { person: null } });
      intents.prepare({ ...intent(5001, now + 2 * MINUTE_MS), waiting_for: { person: null } });
      expect(readdirSync(intents.waitingDirectory)).toHaveLength(2);
      expect(intents.waiting(single, 10).map((found) => found.nonce)).toEqual([intent(5001, 0).nonce, intent(5000, 0).nonce]);
      expect(intents.redeem(intent(5000, 0).nonce)).toMatchObject({ outcome: "redeemed" });
      expect(readdirSync(intents.waitingDirectory)).toHaveLength(1);
      now += 4 * MINUTE_MS;
      expect(intents.waiting(single, 10)).toEqual([]);
      expect(readdirSync(intents.waitingDirectory)).toEqual([]);
    },
  );

  it("takes an entry a power loss left empty as expired or absent, never as a reason to stop; an unreadable used entry still counts as used", async () => {
    let now = Date.parse("2026-06-01T12:00:00Z");
    const path = join(mkdtempSync(join(tmpdir(), "intents-")), "audit.jsonl");
    const store = new FileGuardStore(path, () => new Date(now), { sealKey: new AuditSealKey(randomBytes(32)) });
    const dir = `${path}.intents`;
    const latestOf = (index: number) => join(dir, "latest", createHash("sha256").update(intent(index, 0).fingerprint).digest("hex"));

    // A latest entry emptied, its minute then past: every later dry run and confirmation still works, and the entry is removed.
    await store.prepareIntent(intent(1, now + MINUTE_MS));
    writeFileSync(latestOf(1), "");
    now += 3 * MINUTE_MS;
    await store.prepareIntent(intent(2, now + 5 * MINUTE_MS));
    expect(existsSync(latestOf(1))).toBe(false);
    expect(await store.redeemIntent(intent(2, 0).nonce)).toMatchObject({ outcome: "redeemed" });

    // A prepared entry emptied is a dry run unknown (a new one is needed); so is one whose latest entry cannot be read (it cannot be shown to be the newest).
    await store.prepareIntent(intent(3, now + 5 * MINUTE_MS));
    writeFileSync(join(dir, "prepared", intent(3, 0).nonce), "");
    expect(await store.redeemIntent(intent(3, 0).nonce)).toEqual({ outcome: "unknown" });
    await store.prepareIntent(intent(4, now + 5 * MINUTE_MS));
    writeFileSync(latestOf(4), "{");
    expect(await store.redeemIntent(intent(4, 0).nonce)).toEqual({ outcome: "unknown" });

    // A used entry that cannot be read is still used: the nonce is never redeemed twice, and linking it leaves it so.
    await store.prepareIntent(intent(5, now + 5 * MINUTE_MS));
    expect(await store.redeemIntent(intent(5, 0).nonce)).toMatchObject({ outcome: "redeemed" });
    writeFileSync(join(dir, "used", intent(5, 0).nonce), "");
    await store.prepareIntent(intent(5, now + 5 * MINUTE_MS));
    expect(await store.redeemIntent(intent(5, 0).nonce)).toEqual({ outcome: "reused", reference: null });
    await store.linkNonce(intent(5, 0).nonce, "cw-5");
    expect(await store.redeemIntent(intent(5, 0).nonce)).toEqual({ outcome: "reused", reference: null });
    await store.close();
  });

  it("refuses a nonce that could name another file, and knows none that could", () => {
    const intents = new FileIntents(join(mkdtempSync(join(tmpdir(), "intents-")), "i"), () => new Date());
    expect(() => intents.prepare({ ...intent(1, Date.now() + MINUTE_MS), nonce: "../../escape" })).toThrow(/intent nonce: must be 1 to 128 letters/);
    expect(intents.redeem("../latest/x")).toEqual({ outcome: "unknown" });
  });
});
