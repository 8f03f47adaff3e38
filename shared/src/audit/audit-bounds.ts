import { createHash } from "node:crypto";
import { sanitizeUntrustedText } from "../untrusted/untrusted-text.js";
import type { AuditInput } from "./audit-entry.js";
import { canonicalJson } from "./canonical-json.js";

/** The longest string an audit record keeps whole; any longer one is kept as its preview, length and digest. */
export const AUDIT_STRING_LIMIT = 1024;
/** The largest record (its JSON, before the chain fields); a larger request or details is kept as its digest. */
export const AUDIT_RECORD_LIMIT = 64 * 1024;
const PREVIEW_LENGTH = 64;

/** What a record keeps of a value too large to keep whole: enough to recognise it and to check it against a copy. */
export interface AuditDigest {
  preview: string;
  length: number;
  sha256: string;
}

/** A long text as its preview (the first `previewLength` characters, sanitised), its length and its SHA-256: recognisable, and checkable against a copy. */
export function textDigest(text: string, previewLength = PREVIEW_LENGTH): AuditDigest {
  return {
    preview: sanitizeUntrustedText(text.slice(0, previewLength), Number.POSITIVE_INFINITY),
    length: text.length,
    sha256: createHash("sha256").update(text).digest("hex"),
  };
}

const digestOf = (text: string): AuditDigest => textDigest(text);

/** A string as the log keeps it: through the sanitiser that shows text, so a U+202E in a refused recipient is `\u{202E}` there, never the character. */
const shown = (text: string) => sanitizeUntrustedText(text, Number.POSITIVE_INFINITY);

/**
 * The value with every string sanitised, and every one longer than AUDIT_STRING_LIMIT replaced by
 * its AuditDigest (a refused 2 MB recipient is 64 characters of preview and a digest in the log, not 2 MB).
 */
export function boundedForAudit(value: unknown): unknown {
  if (typeof value === "string") return value.length > AUDIT_STRING_LIMIT ? digestOf(value) : shown(value);
  if (Array.isArray(value)) return value.map(boundedForAudit);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, boundedForAudit(item)]));
  return value;
}

/** A top-level field the record's shape keeps a string: the digest written as one. */
function boundedString(text: string): string {
  if (text.length <= AUDIT_STRING_LIMIT) return shown(text);
  const { preview, length, sha256 } = digestOf(text);
  return `${preview}… [${length} characters, sha256 ${sha256}]`;
}

function jsonDigest(value: unknown): AuditDigest {
  return digestOf(canonicalJson(value));
}

/**
 * The input every audit record is made of, bounded: long strings as their digests, and, should the
 * record still be over AUDIT_RECORD_LIMIT (many small items), its request, then its details, as
 * the digest of their JSON. The event, the tool, the digest and the checks are always kept.
 */
export function boundedAuditInput(input: AuditInput): AuditInput {
  const bounded: AuditInput = {
    ...input,
    surface: boundedString(input.surface),
    operator: boundedString(input.operator),
    tool: boundedString(input.tool),
    request_digest: input.request_digest === null ? null : boundedString(input.request_digest),
    ...(input.request === undefined ? {} : { request: boundedForAudit(input.request) }),
    ...(input.error === undefined ? {} : { error: boundedString(input.error) }),
    ...(input.details === undefined ? {} : { details: boundedForAudit(input.details) as Record<string, unknown> }),
  };
  if (canonicalJson(bounded).length <= AUDIT_RECORD_LIMIT) return bounded;
  if (bounded.request !== undefined) bounded.request = { omitted: jsonDigest(bounded.request) };
  if (canonicalJson(bounded).length > AUDIT_RECORD_LIMIT && bounded.details !== undefined) bounded.details = { omitted: jsonDigest(bounded.details) };
  return bounded;
}
