import { InvalidInputError } from "../../client/errors.js";

/**
 * Runs a request builder or a client call (sync or async) and reports its refusal of an input
 * under the caller's own field names: a builder names the body's fields (contract_address,
 * coin_fields.payee), the client its path segments (uid); a write request or a tool names its own
 * (contract, payee, stake_uid). Other errors pass through unchanged.
 */
export function withInputFieldNames<T>(names: Readonly<Record<string, string>>, run: () => T): T {
  const renamed = (error: unknown): never => {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new InvalidInputError(
      error.subject,
      error.issues.map((issue) => ({ ...issue, path: names[issue.path] ?? issue.path })),
    );
  };
  try {
    const result = run();
    return result instanceof Promise ? (result.catch(renamed) as T) : result;
  } catch (error) {
    return renamed(error);
  }
}
