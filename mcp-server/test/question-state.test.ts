import { describe, expect, it } from "vitest";
import { ConfirmationTokens } from "../src/server/confirmation-token.js";
import { openQuestion, questionDigest, sealQuestion } from "../src/guard/question-state.js";

const intent = { nonce: "0123456789abcdef0123456789abcdef", tool: "create_transaction", operator: "treasury-bot", person: "alice" };
const NOW = Date.parse("2026-11-26T12:00:00Z");
const state = { ...intent, question: questionDigest("Send 1 SOL?\nSubmit it?"), expires_at: NOW + 60_000 };

describe("the requestState of the person's question", () => {
  it("opens on any replica with the same token secret, for the same intent, tool, operator and person, until it expires", () => {
    const secret = Buffer.alloc(32, 7);
    const sealed = sealQuestion(new ConfirmationTokens({ secret }), state);
    const replica = new ConfirmationTokens({ secret });
    expect(openQuestion(replica, sealed, intent, NOW)).toEqual({ ok: true, state });
    expect(openQuestion(replica, sealed, intent, state.expires_at)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/expired at 2026-11-26T12:01:00.000Z/),
    });
    expect(openQuestion(new ConfirmationTokens(), sealed, intent, NOW)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/signature does not match/),
    });
  });

  it("is refused for another person, tool, operator or dry run, and when altered, cut or overlong", () => {
    const tokens = new ConfirmationTokens();
    const sealed = sealQuestion(tokens, state);
    for (const other of [{ person: "bob" }, { person: null }, { tool: "approve_transaction" }, { operator: "staking-bot" }, { nonce: "f".repeat(32) }]) {
      expect(openQuestion(tokens, sealed, { ...intent, ...other }, NOW)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/issued for another confirmation/),
      });
    }
    const [prefix, body, mac] = sealed.split(".") as [string, string, string];
    const bobs = Buffer.from(JSON.stringify({ ...state, person: "bob" })).toString("base64url");
    expect(openQuestion(tokens, [prefix, bobs, mac].join("."), { ...intent, person: "bob" }, NOW)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/signature does not match/),
    });
    expect(openQuestion(tokens, `${prefix}.${body}`, intent, NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/malformed/) });
    expect(openQuestion(tokens, `${sealed}.x`, intent, NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/malformed/) });
    expect(openQuestion(tokens, "q".repeat(2000), intent, NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/longer than 1024 characters/) });
    // A token's signature is not a question's: the purposes differ.
    const token = tokens.issue(intent.nonce, intent);
    expect(openQuestion(tokens, `q1.${body}.${token.split(".")[2]}`, intent, NOW).ok).toBe(false);
  });
});
