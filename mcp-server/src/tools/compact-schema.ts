type Json = Record<string, unknown>;

/** Keywords that apply to one JSON type only: a type list's keywords go to the branch of their type. */
const KEYWORDS_OF: Record<string, readonly string[]> = {
  string: ["maxLength", "minLength", "pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  object: ["properties", "required", "additionalProperties"],
  array: ["items", "prefixItems", "minItems", "maxItems"],
};

/**
 * `type: [string, null], maxLength` as `anyOf: [{type: string, maxLength}, {type: null}]`: the same
 * values, each branch of one type, which clients that map schemas onto a single-type dialect
 * (Gemini's OpenAPI subset) take; the inspector's --strict warns of a type list.
 */
function splitTypeList(schema: Json, types: readonly string[]): Json {
  const outside: Json = {};
  const branches: Json[] = types.map((type) => ({ type }));
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type") continue;
    const owners = types.flatMap((type, index) => ((KEYWORDS_OF[type] ?? []).includes(key) ? [index] : []));
    if (owners.length === 0) outside[key] = value;
    for (const index of owners) (branches[index] as Json)[key] = value;
  }
  return { anyOf: branches, ...outside };
}

/**
 * A JSON Schema as tools/list shows it: what constrains nothing left out (`properties: {}`,
 * `additionalProperties: {}`: tools/list is read by every model on every session, and these bytes
 * say nothing to it), and a type list written as single-type branches. For an output schema
 * (`open`), objects also stay open (no `additionalProperties: false`): an answer names its fields,
 * and a field added later must not make a client refuse an answer about money that moved.
 */
export function compactSchema(schema: unknown, open = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compactSchema(item, open));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === "properties" || key === "additionalProperties") && value !== null && typeof value === "object" && Object.keys(value).length === 0) continue;
    if (open && key === "additionalProperties" && value === false) continue;
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as Json).map(([name, property]) => [name, compactSchema(property, open)]))
        : compactSchema(value, open);
  }
  return Array.isArray(out.type) ? splitTypeList(out, out.type as string[]) : out;
}
