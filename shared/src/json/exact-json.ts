// JSON with exact integers. The service sends some base-unit amounts as JSON integers
// (Polkadot balances, Solana stake balances) and accepts integers in some bodies
// (Solana stake amounts). A plain JSON.parse would round any integer above 2^53.

const LONG_DIGIT_RUN = /[0-9]{16,}/;
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g;
const INTEGER_TOKEN = /^-?[0-9]+$/;
// A number as JSON writes one: a token outside this grammar ("01", "-01") is left for JSON.parse to refuse.
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const WRITTEN_NUMBER = /[-.eE]/;

export interface ExactJsonOptions {
  /**
   * Also keep as written, as a string, a number written with a sign, a fraction or an exponent
   * that JSON.parse reads as an integer ("1.0", "1e6", "-0", "4999999999.99999999" read as
   * 5000000000): a request body's base-unit rules then see how it was written and refuse it,
   * rather than take a value JSON.parse may already have rounded.
   */
  integersAsWritten?: boolean;
}

function keptAsWritten(token: string, options: ExactJsonOptions): boolean {
  if (!JSON_NUMBER.test(token)) return false;
  const value = Number(token);
  const asWritten = options.integersAsWritten === true;
  if (INTEGER_TOKEN.test(token)) return !Number.isSafeInteger(value) || (asWritten && token.startsWith("-"));
  return asWritten && Number.isInteger(value);
}

/**
 * Parses JSON text; an integer literal too large to be exact as a JS number becomes
 * the string of its digits, so base-unit schemas receive it without loss.
 */
export function parseJsonExact(text: string, options: ExactJsonOptions = {}): unknown {
  if (!LONG_DIGIT_RUN.test(text) && !(options.integersAsWritten === true && WRITTEN_NUMBER.test(text))) return JSON.parse(text);
  const quoted = text.replace(STRING_OR_NUMBER, (token) => (!token.startsWith('"') && keptAsWritten(token, options) ? `"${token}"` : token));
  return JSON.parse(quoted);
}

/**
 * Serialises a value to JSON; a bigint becomes a JSON integer written digit for digit.
 * Objects' toJSON methods are honoured, undefined properties are dropped, like JSON.stringify.
 */
export function stringifyJsonExact(value: unknown): string {
  const out = write(value);
  if (out === undefined) throw new TypeError("value has no JSON representation");
  return out;
}

function write(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") return write(withToJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? "null").join(",")}]`;
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const encoded = write(item);
    if (encoded !== undefined) parts.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${parts.join(",")}}`;
}
