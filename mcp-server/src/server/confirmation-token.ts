import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type TokenRefusal = "malformed" | "forged";

export type TokenCheck = { ok: true; nonce: string } | { ok: false; reason: TokenRefusal; message: string };

const PREFIX = "v2";
const NONCE = /^[0-9a-f]{32}$/;
/** An HMAC-SHA256 in canonical base64url: 43 characters, no padding (base64url decoding would ignore a trailing `=` or `!`). */
const MAC = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** What a token is issued for: the tool, the operator, and the subject of the person who ran the dry run (null: a single user). */
export interface TokenBinding {
  tool: string;
  operator: string;
  person: string | null;
}

export interface ConfirmationTokenOptions {
  /** The HMAC key; a fresh random one per process when absent (tokens die with the process). */
  secret?: Buffer;
}

/**
 * Confirmation tokens on the wire: `v2.<nonce>.<HMAC-SHA256 over the nonce, the tool, the
 * operator and the person>`. What the confirmation rebuilds (the request's digest, account, reference, session,
 * expiry) is kept by the guard's store under the nonce, which also uses it once; the signature
 * only proves this server issued the token for this tool, operator and person.
 */
export class ConfirmationTokens {
  readonly #secret: Buffer;

  constructor(options: ConfirmationTokenOptions = {}) {
    this.#secret = options.secret ?? randomBytes(32);
  }

  /** The token that carries a prepared intent's nonce. */
  issue(nonce: string, bound: TokenBinding): string {
    return `${PREFIX}.${nonce}.${this.#mac(nonce, bound)}`;
  }

  /** The nonce of a token this server issued for this tool, operator and person, or why it is refused. */
  open(token: string, bound: TokenBinding): TokenCheck {
    const [prefix, nonce, mac, extra] = token.split(".");
    if (prefix !== PREFIX || nonce === undefined || !NONCE.test(nonce) || mac === undefined || !MAC.test(mac) || extra !== undefined) {
      return {
        ok: false,
        reason: "malformed",
        message: "confirmation_token: not a token this server issued (malformed); run the tool without a token for a new dry run",
      };
    }
    // The strings themselves, compared exactly: one token has one spelling.
    const expected = Buffer.from(this.#mac(nonce, bound), "latin1");
    const given = Buffer.from(mac, "latin1");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return {
        ok: false,
        reason: "forged",
        message:
          "confirmation_token: its signature does not match (altered, issued for another tool, operator " +
          `or person than ${bound.tool} as ${bound.operator}${bound.person === null ? "" : " for you"}, ` +
          "or by a server with another token secret); run a new dry run",
      };
    }
    return { ok: true, nonce };
  }

  /**
   * A MAC of other server-minted text under the same secret (the person's question, sealed in an
   * input-required requestState), separated from tokens by its purpose: every replica that reads
   * the token secret can check it.
   */
  sign(purpose: string, text: string): string {
    return createHmac("sha256", this.#secret)
      .update(JSON.stringify([purpose, text]))
      .digest("base64url");
  }

  /** Whether `mac` is sign(purpose, text), the very string (as UTF-8: latin1 would read a character by its low byte alone), compared in constant time. */
  signed(purpose: string, text: string, mac: string): boolean {
    const expected = Buffer.from(this.sign(purpose, text), "utf8");
    const given = Buffer.from(mac, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(nonce: string, bound: TokenBinding): string {
    return createHmac("sha256", this.#secret)
      .update(JSON.stringify([PREFIX, nonce, bound.tool, bound.operator, bound.person]))
      .digest("base64url");
  }
}
