import { describe, expect, it } from "vitest";
import { INTENT_CHECKS, notExpired, samePerson, sameTool, type IntentAsked } from "../../src/write-road/intent-checks.js";
import { firstRefusal } from "../../src/write-road/road-check.js";
import { plannedSend, sealedFor } from "./planned-write-fixture.js";

const sealed = sealedFor(plannedSend(), { person: "alice", expires_at: 1_000 });
const asked = (over: Partial<IntentAsked> = {}): IntentAsked => ({ sealed, tool: "create_transaction", person: "alice", now: 999, ...over });

describe("what an open intent is held to before it is used", () => {
  it("the tool of its dry run", () => {
    expect(sameTool(asked())).toBeNull();
    expect(sameTool(asked({ tool: "solana_create_stake" }))).toEqual({
      reason: "other_tool",
      message: "the confirmation is for create_transaction, not solana_create_stake; run a new dry run with solana_create_stake",
    });
  });

  it("the person who ran it: another person, or a single user, is refused", () => {
    expect(samePerson(asked())).toBeNull();
    expect(samePerson(asked({ person: "mallory" }))?.reason).toBe("other_person");
    expect(samePerson(asked({ person: null }))?.reason).toBe("other_person");
  });

  it("its expiry: expired from the moment it names", () => {
    expect(notExpired(asked())).toBeNull();
    expect(notExpired(asked({ now: 1_000 }))).toEqual({ reason: "expired", message: "the dry run expired at 1970-01-01T00:00:01.000Z; run a new dry run" });
  });

  it("in that order: the first that refuses is the refusal, and none when all hold", async () => {
    expect(await firstRefusal(INTENT_CHECKS, asked())).toBeNull();
    expect((await firstRefusal(INTENT_CHECKS, asked({ tool: "other", person: "mallory", now: 5_000 })))?.reason).toBe("other_tool");
    expect((await firstRefusal(INTENT_CHECKS, asked({ person: "mallory", now: 5_000 })))?.reason).toBe("other_person");
  });
});

describe("firstRefusal", () => {
  it("runs a check only when those before it passed", async () => {
    const ran: string[] = [];
    const check = (name: string, refuses: boolean) => (subject: number) => {
      ran.push(`${name}:${subject}`);
      return refuses ? { reason: "expired" as const, message: name } : null;
    };
    expect(await firstRefusal([check("a", false), check("b", true), check("c", true)], 1)).toEqual({ reason: "expired", message: "b" });
    expect(ran).toEqual(["a:1", "b:1"]);
  });
});
