import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openPageId, pageId } from "../src/confirm-page/page-handle.js";
import { openQuestion, questionDigest, sealQuestion } from "../src/guard/question-state.js";
import { ConfirmationTokens } from "../src/server/confirmation-token.js";
import { openHandle, sealHandle, type SealedKind } from "../src/server/sealed-handle.js";

const Payload = z.strictObject({ reference: z.string(), count: z.int() });
const kind = (purpose: string, prefix: string | null = "h1"): SealedKind<z.infer<typeof Payload>> => ({ prefix, purpose, maxChars: 200, payload: Payload });
const payload = { reference: "cw-0123456789abcdef0123", count: 2 };

describe("a sealed handle", () => {
  it("opens, with its payload, on any replica with the same token secret", () => {
    const secret = Buffer.alloc(32, 9);
    const sealed = sealHandle(new ConfirmationTokens({ secret }), kind("custody.test.v1"), payload);
    expect(sealed).toMatch(/^h1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(openHandle(new ConfirmationTokens({ secret }), kind("custody.test.v1"), sealed)).toEqual({ ok: true, payload });
    expect(openHandle(new ConfirmationTokens(), kind("custody.test.v1"), sealed)).toEqual({ ok: false, refusal: "signature" });
  });

  it("is refused for another purpose, even under the same label, and under another label", () => {
    const tokens = new ConfirmationTokens();
    const sealed = sealHandle(tokens, kind("custody.test.v1"), payload);
    expect(openHandle(tokens, kind("custody.other.v1"), sealed)).toEqual({ ok: false, refusal: "signature" });
    expect(openHandle(tokens, kind("custody.test.v1", "h2"), sealed)).toEqual({ ok: false, refusal: "malformed" });
    expect(openHandle(tokens, kind("custody.test.v1", null), sealed)).toEqual({ ok: false, refusal: "malformed" });
    const unlabelled = sealHandle(tokens, kind("custody.test.v1", null), payload);
    expect(unlabelled.split(".")).toHaveLength(2);
    expect(openHandle(tokens, kind("custody.test.v1", null), unlabelled)).toEqual({ ok: true, payload });
    expect(openHandle(tokens, kind("custody.other.v1", null), unlabelled)).toEqual({ ok: false, refusal: "signature" });
  });

  it("is refused overlong (before it is decoded), cut, extended, or with content its schema refuses", () => {
    const tokens = new ConfirmationTokens();
    const sealed = sealHandle(tokens, kind("custody.test.v1"), payload);
    expect(openHandle(tokens, kind("custody.test.v1"), `h1.${"a".repeat(300)}`)).toEqual({ ok: false, refusal: "overlong" });
    expect(openHandle(tokens, kind("custody.test.v1"), sealed.split(".").slice(0, 2).join("."))).toEqual({ ok: false, refusal: "malformed" });
    expect(openHandle(tokens, kind("custody.test.v1"), `${sealed}.x`)).toEqual({ ok: false, refusal: "malformed" });
    const extra = sealHandle(tokens, kind("custody.test.v1"), { ...payload, person: "bob" } as typeof payload);
    expect(openHandle(tokens, kind("custody.test.v1"), extra)).toEqual({ ok: false, refusal: "content" });
  });
});

describe("the server's handles of different purposes", () => {
  it("do not pass for one another: a page id is no question's requestState, and a requestState no page id", () => {
    const tokens = new ConfirmationTokens();
    const target = { reference: "cw-0123456789abcdef0123", tool: "create_transaction", operator: "treasury-bot", person: null };
    const [, pageBody, pageMac] = pageId(tokens, target).split(".") as [string, string, string];
    const intent = { nonce: "0123456789abcdef0123456789abcdef", tool: "create_transaction", operator: "treasury-bot", person: null };
    expect(openQuestion(tokens, `q1.${pageBody}.${pageMac}`, intent, 0)).toMatchObject({ ok: false, message: expect.stringMatching(/signature/) });
    const question = sealQuestion(tokens, { ...intent, question: questionDigest("Send?"), expires_at: 60_000 });
    const [, questionBody, questionMac] = question.split(".") as [string, string, string];
    expect(openPageId(tokens, `p1.${questionBody}.${questionMac}`)).toBeNull();
    expect(openPageId(tokens, pageId(tokens, target))).toEqual(target);
  });
});
