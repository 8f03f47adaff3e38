import { stringifyJsonExact } from "@custody/shared";
import type { ReadResourceResult, Variables } from "@modelcontextprotocol/server";

/** A resource's JSON body; the value is a sanitised view already. */
export function jsonContents(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: stringifyJsonExact(value) }] };
}

/** A numeric id from a URI template variable, or an error naming it. */
export function idVariable(variables: Variables, name: string): number {
  const raw = variables[name];
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined || !/^[1-9][0-9]{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error(`${name}: must be a positive whole number, got ${JSON.stringify(text ?? "")}`);
  }
  return Number(text);
}
