import { stringifyJsonExact } from "@custody/shared";
import type { ReadResourceResult, Variables } from "@modelcontextprotocol/server";

/** A resource's JSON body; the value is a sanitised view already. */
export function jsonContents(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: stringifyJsonExact(value) }] };
}

function variableText(variables: Variables, name: string): string | undefined {
  const raw = variables[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** A text from a URI template variable, at most `max` characters, or an error naming it. */
export function textVariable(variables: Variables, name: string, max: number): string {
  const text = variableText(variables, name);
  if (text === undefined || text === "" || text.length > max)
    throw new Error(`${name}: must be 1 to ${max} characters, got ${text === undefined ? "none" : `${text.length}`}`);
  return text;
}

/** A numeric id from a URI template variable, or an error naming it. */
export function idVariable(variables: Variables, name: string): number {
  const text = variableText(variables, name);
  if (text === undefined || !/^[1-9][0-9]{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error(`${name}: must be a positive whole number, got ${JSON.stringify(text ?? "")}`);
  }
  return Number(text);
}
