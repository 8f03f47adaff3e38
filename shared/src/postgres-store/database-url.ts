import { errorMessage } from "../untrusted/error-message.js";
import { databaseUrlShown } from "../guard-store/store-location.js";

/**
 * A database URL and what must never be shown of it: its password (user info or `password`
 * parameter). `shown` is the URL with the password masked.
 */
export class DatabaseTarget {
  readonly shown: string;
  readonly #secrets: string[];

  constructor(readonly url: string) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error("the store's database URL is not a valid URL (postgres://user:password@host:port/database)");
    }
    const secrets = [parsed.password, parsed.searchParams.get("password")].filter((value): value is string => value !== null && value !== "");
    this.shown = databaseUrlShown(url);
    // A secret may appear as typed or percent-encoded; the longest first, so no part of one survives.
    this.#secrets = [...new Set(secrets.flatMap((secret) => [secret, safeDecode(secret), encodeURIComponent(secret)]))].sort((a, b) => b.length - a.length);
  }

  /**
   * An error with the password masked, to throw in its place: the driver's own error (and its
   * cause chain) is never passed on, as it may quote the connection settings.
   */
  redactError(error: unknown, context = ""): Error {
    const message = errorMessage(error);
    const code = (error as { code?: unknown } | null)?.code;
    return Object.assign(new Error(`${context}${this.redact(message)}`), typeof code === "string" ? { code } : {});
  }

  /** The text with the URL and every form of the password masked. */
  redact(text: string): string {
    let out = text.split(this.url).join(this.shown);
    for (const secret of this.#secrets) out = out.split(secret).join("***");
    return out;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
