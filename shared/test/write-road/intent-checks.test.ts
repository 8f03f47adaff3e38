import { describe, expect, it } from "vitest";
import { INTENT_CHECKS, notExpired, samePerson, sameService, sameTool, type IntentAsked } from "../../src/write-road/intent-checks.js";
import { firstRefusal, refusal } from "../../src/write-road/road-check.js";
import { localText } from "../../src/l10n/translate.js";
import { plannedSend, sealedFor } from "./planned-write-fixture.js";

const SERVICE = "https://custody.example";
const sealed = sealedFor(plannedSend(), { person: "alice", expires_at: 1_000, service: SERVICE });
const asked = (over: Partial<IntentAsked> = {}): IntentAsked => ({ sealed, tool: "create_transaction", person: "alice", service: SERVICE, now: 999, ...over });

describe("what an open intent is held to before it is used", () => {
  it("the tool of its dry run", () => {
    expect(sameTool(asked())).toBeNull();
    expect(sameTool(asked({ tool: "solana_create_stake" }))).toMatchObject({
      reason: "other_tool",
      message: "the confirmation is for create_transaction, not solana_create_stake; run a new dry run with solana_create_stake",
    });
  });

  it("the person who ran it: another person, or a single user, is refused", () => {
    expect(samePerson(asked())).toBeNull();
    expect(samePerson(asked({ person: "mallory" }))?.reason).toBe("other_person");
    expect(samePerson(asked({ person: null }))?.reason).toBe("other_person");
  });

  it("the custody service it was planned against: the same operator and account ids elsewhere are another workspace's", () => {
    expect(sameService(asked())).toBeNull();
    expect(sameService(asked({ service: "http://127.0.0.1:8080" }))).toMatchObject({
      reason: "other_service",
      message:
        "the dry run was made against the custody service at https://custody.example, not " +
        "http://127.0.0.1:8080: confirm it where it was made, or run a new dry run here",
    });
    // One sealed before the service was kept is held to the rest only (it expires within minutes).
    const { service: _kept, ...older } = sealed;
    expect(sameService(asked({ sealed: older, service: "http://127.0.0.1:8080" }))).toBeNull();
  });

  it("its expiry: expired from the moment it names", () => {
    expect(notExpired(asked())).toBeNull();
    expect(notExpired(asked({ now: 1_000 }))).toMatchObject({
      reason: "expired",
      message: "the dry run expired at 1970-01-01T00:00:01.000Z; run a new dry run",
    });
  });

  it("in that order: the first that refuses is the refusal, and none when all hold", async () => {
    expect(await firstRefusal(INTENT_CHECKS, asked())).toBeNull();
    expect((await firstRefusal(INTENT_CHECKS, asked({ tool: "other", person: "mallory", now: 5_000 })))?.reason).toBe("other_tool");
    expect((await firstRefusal(INTENT_CHECKS, asked({ person: "mallory", now: 5_000 })))?.reason).toBe("other_person");
    expect((await firstRefusal(INTENT_CHECKS, asked({ service: "http://127.0.0.1:8080", now: 5_000 })))?.reason).toBe("other_service");
  });
});

describe("firstRefusal", () => {
  it("runs a check only when those before it passed", async () => {
    const ran: string[] = [];
    const check = (name: string, refuses: boolean) => (subject: number) => {
      ran.push(`${name}:${subject}`);
      return refuses ? refusal("expired", localText(name)) : null;
    };
    expect(await firstRefusal([check("a", false), check("b", true), check("c", true)], 1)).toMatchObject({
      reason: "expired",
      message: "b",
      text: localText("b"),
    });
    expect(ran).toEqual(["a:1", "b:1"]);
  });
});
