import { CustodyApiError, stringifyJsonExact } from "@custody/shared";
import { ResourceNotFoundError, type ReadResourceResult, type Variables } from "@modelcontextprotocol/server";

/** A resource's JSON body; the value is a sanitised view already. */
export function jsonContents(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: stringifyJsonExact(value) }] };
}

function variableText(variables: Variables, name: string): string | undefined {
  const raw = variables[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** A URI template variable out of its form: the URI names no resource. */
class VariableError extends Error {}

/**
 * Reads a resource its URI names: when the URI names nothing that can exist (a variable out of
 * form) or that exists (the service answers 404), the answer is MCP's resource not found (-32602
 * with the URI, SEP-2164) naming why, not an internal error.
 */
export async function readNamedResource(uri: URL, read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof VariableError || (error instanceof CustodyApiError && error.status === 404))
      throw new ResourceNotFoundError(uri.href, `Resource not found: ${uri.href}: ${error.message}`);
    throw error;
  }
}

/** A text from a URI template variable, at most `max` characters, or an error naming it. */
export function textVariable(variables: Variables, name: string, max: number): string {
  const text = variableText(variables, name);
  if (text === undefined || text === "" || text.length > max)
    throw new VariableError(`${name}: must be 1 to ${max} characters, got ${text === undefined ? "none" : `${text.length}`}`);
  return text;
}

/** The id a URI template variable's text names (a positive whole number, written plainly), or null. */
export function idOfText(text: string | undefined): number | null {
  if (text === undefined || !/^[1-9][0-9]{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) return null;
  return Number(text);
}

/** A numeric id from a URI template variable, or an error naming it. */
export function idVariable(variables: Variables, name: string): number {
  const text = variableText(variables, name);
  const id = idOfText(text);
  if (id === null) throw new VariableError(`${name}: must be a positive whole number, got ${JSON.stringify(text ?? "")}`);
  return id;
}
