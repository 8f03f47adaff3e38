import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { INPUT_LIMITS, lengthProblem } from "@custody/shared";
import { z } from "zod";

/** What a confirmation must rebuild exactly: the dry run's correlation id and the max_fees it proposed. */
export interface SealedState {
  correlation_id: string;
  /** Base units, digits; null when the caller gave max_fees or the write has none. */
  max_fees: string | null;
}

export interface TokenClaims {
  operator: string;
  tool: string;
  /** requestDigest of the exact request the dry run showed. */
  digest: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
  nonce: string;
  state: SealedState;
}

export type TokenRefusal = "malformed" | "forged" | "other_operator" | "other_tool" | "expired" | "reused";

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: TokenRefusal; message: string };

const Claims = z.strictObject({
  v: z.literal(1),
  operator: z.string(),
  tool: z.string(),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  expires_at: z.int().nonnegative(),
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  state: z.strictObject({ correlation_id: z.string(), max_fees: z.string().regex(/^[0-9]+$/).nullable() }),
});

const PREFIX = "v1";
export const DEFAULT_TOKEN_TTL_MS = 5 * 60 * 1000;

export interface ConfirmationTokenOptions {
  /** The HMAC key; a fresh random one per process when absent (tokens die with the process). */
  secret?: Buffer;
  ttlMs?: number;
  now?: () => Date;
}

/**
 * Confirmation tokens: HMAC-SHA256 over the operator, the tool, the request digest, the expiry,
 * a nonce and the sealed state. Redeeming checks and consumes a token in one synchronous step,
 * so two concurrent confirmations cannot both pass.
 */
export class ConfirmationTokens {
  readonly ttlMs: number;
  readonly #secret: Buffer;
  readonly #now: () => Date;
  /** Nonces redeemed, kept until their token expires. */
  readonly #spent = new Map<string, number>();

  constructor(options: ConfirmationTokenOptions = {}) {
    this.#secret = options.secret ?? randomBytes(32);
    this.ttlMs = options.ttlMs ?? DEFAULT_TOKEN_TTL_MS;
    if (!Number.isSafeInteger(this.ttlMs) || this.ttlMs < 1000) throw new RangeError(`token lifetime: must be at least 1 second, got ${this.ttlMs} ms`);
    this.#now = options.now ?? (() => new Date());
  }

  issue(claims: Pick<TokenClaims, "operator" | "tool" | "digest" | "state">): { token: string; expiresAt: Date } {
    const expiresAt = this.#now().getTime() + this.ttlMs;
    const payload = Buffer.from(JSON.stringify({ v: 1, ...claims, expires_at: expiresAt, nonce: randomBytes(16).toString("hex") })).toString("base64url");
    return { token: `${PREFIX}.${payload}.${this.#mac(payload)}`, expiresAt: new Date(expiresAt) };
  }

  /** Checks the token for this operator and tool and, when it is good, marks it used. */
  redeem(token: string, expected: { operator: string; tool: string }): TokenCheck {
    const now = this.#now().getTime();
    this.#forgetExpired(now);
    const tooLong = lengthProblem("confirmation_token", token, INPUT_LIMITS.confirmation_token);
    if (tooLong !== undefined) return refuse("malformed", `${tooLong}: not a token this server issued; run the tool without a token for a new dry run`);
    const [prefix, payload, mac, extra] = token.split(".");
    if (prefix !== PREFIX || !payload || !mac || extra !== undefined) {
      return refuse("malformed", "confirmation_token: not a token this server issued (malformed); run the tool without a token for a new dry run");
    }
    if (!this.#macMatches(payload, mac)) {
      return refuse("forged", "confirmation_token: its signature does not match (forged, altered, or issued by another server process); run a new dry run");
    }
    const parsed = Claims.safeParse(parseJson(Buffer.from(payload, "base64url").toString("utf8")));
    if (!parsed.success) return refuse("malformed", "confirmation_token: its content is unreadable; run a new dry run");
    const { v: _version, ...claims } = parsed.data;
    if (claims.operator !== expected.operator) {
      return refuse("other_operator", `confirmation_token: issued for operator ${claims.operator}, not ${expected.operator}; run a new dry run`);
    }
    if (claims.tool !== expected.tool) {
      return refuse("other_tool", `confirmation_token: issued for the tool ${claims.tool}, not ${expected.tool}; run a new dry run with ${expected.tool}`);
    }
    if (now >= claims.expires_at) {
      return refuse("expired", `confirmation_token: expired at ${new Date(claims.expires_at).toISOString()}; run a new dry run`);
    }
    if (this.#spent.has(claims.nonce)) {
      return refuse("reused", "confirmation_token: already used (a token confirms one submission only); run a new dry run");
    }
    this.#spent.set(claims.nonce, claims.expires_at);
    return { ok: true, claims };
  }

  #mac(payload: string): string {
    return createHmac("sha256", this.#secret).update(`${PREFIX}.${payload}`).digest("base64url");
  }

  #macMatches(payload: string, mac: string): boolean {
    const expected = Buffer.from(this.#mac(payload), "base64url");
    const given = Buffer.from(mac, "base64url");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #forgetExpired(now: number): void {
    for (const [nonce, expiresAt] of this.#spent) if (expiresAt <= now) this.#spent.delete(nonce);
  }
}

function refuse(reason: TokenRefusal, message: string): TokenCheck {
  return { ok: false, reason, message };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
