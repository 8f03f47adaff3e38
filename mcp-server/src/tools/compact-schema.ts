type Json = Record<string, unknown>;

/** Keywords that apply to one JSON type only: branches of a union that use them can share one schema. */
const KEYWORDS_OF: Record<string, readonly string[]> = {
  string: ["maxLength", "minLength", "pattern"],
  number: ["minimum", "maximum"],
  integer: ["minimum", "maximum"],
};

/** `anyOf: [{type: number}, {type: string, maxLength}]` as `type: [number, string], maxLength`: the same values, fewer bytes. */
function mergedUnion(branches: Json[]): Json | null {
  const merged: Json = { type: [] as string[] };
  for (const branch of branches) {
    const type = branch.type;
    if (typeof type !== "string") return null;
    const own = KEYWORDS_OF[type] ?? [];
    for (const [key, value] of Object.entries(branch)) {
      if (key === "type") continue;
      if (!own.includes(key) || key in merged) return null;
      merged[key] = value;
    }
    (merged.type as string[]).push(type);
  }
  const types = merged.type as string[];
  // Keywords of two branches' types may not apply to both (number and integer share minimum).
  return new Set(types).size === types.length ? merged : null;
}

/**
 * A JSON Schema with what constrains nothing left out (`properties: {}`, `additionalProperties: {}`)
 * and single-type unions written as one type list: tools/list is read by every model on every
 * session, and these bytes say nothing to it.
 */
export function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === "properties" || key === "additionalProperties") && value !== null && typeof value === "object" && Object.keys(value).length === 0) continue;
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as Json).map(([name, property]) => [name, compactSchema(property)])) : compactSchema(value);
  }
  if (Array.isArray(out.anyOf)) {
    const merged = mergedUnion(out.anyOf as Json[]);
    if (merged !== null) {
      const { anyOf: _union, ...rest } = out;
      return { ...merged, ...rest };
    }
  }
  return out;
}

/**
 * An output schema as listed: an object naming its top-level fields, open (no `additionalProperties:
 * false`, no `error` field, no types): a client validates structuredContent against it, an answer
 * may carry fields beyond those named (an error's `error`, a dry run's fee and balances), and the
 * fields' shapes are in the answers themselves and the server instructions.
 */
export function openOutputSchema(schema: Json): Json {
  const { error: _error, ...named } = (schema.properties ?? {}) as Json;
  return { type: "object", ...(Object.keys(named).length === 0 ? {} : { properties: Object.fromEntries(Object.keys(named).map((name) => [name, {}])) }) };
}
