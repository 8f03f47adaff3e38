import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { discoverIssuer, METADATA_LIMITS, type IssuerMetadata } from "./authorization-server-metadata.js";
import { fetchBounded } from "./bounded-fetch.js";
import { errorMessage } from "@custody/shared";

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;

/** The issuer's keys cannot be had now: a token cannot be checked, which is not the token's fault (503, not 401). */
export class KeysUnavailable extends Error {
  override readonly name = "KeysUnavailable";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * The issuer's signing keys, found through its metadata on the first token (so the server starts
 * while the identity provider is down) and again after a failure, no sooner than a backoff of 1 s
 * doubling to 60 s. jose keeps the key set: fetched again after 10 minutes, or when a token names
 * a key it lacks (at most every 30 s), each fetch bounded in time and size.
 */
export class IssuerKeys {
  #keys: JWTVerifyGetKey | null = null;
  #metadata: IssuerMetadata | null = null;
  #pending: Promise<JWTVerifyGetKey> | null = null;
  #failures = 0;
  #retryAt = 0;
  #problem = "";

  constructor(
    private readonly issuer: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async keys(): Promise<JWTVerifyGetKey> {
    if (this.#keys !== null) return this.#keys;
    const wait = this.#retryAt - this.now();
    if (wait > 0)
      throw new KeysUnavailable(
        `the authorization server's metadata could not be read (${this.#problem}); next attempt in ${Math.ceil(wait / 1000)} s`,
        Math.ceil(wait / 1000),
      );
    this.#pending ??= this.#discover().finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  /** The issuer's metadata, discovered as for its keys (KeysUnavailable while it cannot be read). */
  async metadata(): Promise<IssuerMetadata> {
    await this.keys();
    return this.#metadata as IssuerMetadata;
  }

  async #discover(): Promise<JWTVerifyGetKey> {
    try {
      const metadata = await discoverIssuer(this.issuer);
      this.#metadata = metadata;
      this.#keys = createRemoteJWKSet(metadata.jwksUri, {
        timeoutDuration: METADATA_LIMITS.timeoutMs,
        cooldownDuration: 30_000,
        cacheMaxAge: 600_000,
        [customFetch]: (url, init) => fetchBounded(url, init, METADATA_LIMITS),
      });
      this.#failures = 0;
      this.log(`authorization server ${this.issuer}: signing keys at ${metadata.jwksUri.href}`);
      return this.#keys;
    } catch (error) {
      this.#failures += 1;
      const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.#failures - 1));
      this.#retryAt = this.now() + delay;
      this.#problem = errorMessage(error);
      this.log(`authorization server ${this.issuer}: ${this.#problem}; tokens are answered 503 until it answers (next attempt in ${delay / 1000} s)`);
      throw new KeysUnavailable(
        `the authorization server's metadata could not be read (${this.#problem}); retry in ${Math.ceil(delay / 1000)} s`,
        Math.ceil(delay / 1000),
      );
    }
  }
}
