import { z } from "zod";
import { sanitizeUntrustedText } from "../untrusted/untrusted-text.js";

/** The longest subject, client id, group or role accepted from a token. */
const MAX_IDENTIFIER = 256;
/** The longest name or e-mail kept from a token; a longer one is cut (it is only shown). */
const MAX_SHOWN = 200;
/** The most groups or roles read from a token. */
const MAX_MEMBERSHIPS = 256;

/**
 * Who asks, as a signed-in person's access token says: its subject, the name or e-mail it
 * carries, the OAuth client it came through, and the groups and roles the policy's roles match on.
 * Every field is text from the identity provider: bounded here and sanitised wherever it is shown.
 */
export const Person = z.strictObject({
  subject: z.string().min(1).max(MAX_IDENTIFIER),
  name: z
    .string()
    .max(MAX_SHOWN + 20)
    .optional(),
  email: z
    .string()
    .max(MAX_SHOWN + 20)
    .optional(),
  /** The OAuth client the person acts through (`client_id`, else `azp`). */
  client: z.string().max(MAX_IDENTIFIER).optional(),
  groups: z.array(z.string().max(MAX_IDENTIFIER)).max(MAX_MEMBERSHIPS),
  roles: z.array(z.string().max(MAX_IDENTIFIER)).max(MAX_MEMBERSHIPS),
});
export type Person = z.infer<typeof Person>;

/** The person as every audit record names them: no memberships (the policy's verdict is recorded instead). */
export const PersonOnRecord = z.strictObject({
  subject: z.string(),
  name: z.string().optional(),
  email: z.string().optional(),
  client: z.string().optional(),
});
export type PersonOnRecord = z.infer<typeof PersonOnRecord>;

export class ClaimsError extends Error {
  override readonly name = "ClaimsError";
}

function identifier(claims: Record<string, unknown>, claim: string): string | undefined {
  const value = claims[claim];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value === "" || value.length > MAX_IDENTIFIER)
    throw new ClaimsError(`the token's ${claim} claim must be a string of 1 to ${MAX_IDENTIFIER} characters`);
  return value;
}

/** One line, whatever the provider lets a person type into their name: no line breaks or tabs to forge a line of a summary. */
function oneLine(text: string, maxLength: number): string {
  return sanitizeUntrustedText(text.replace(/\s+/g, " ").trim(), maxLength);
}

function shown(claims: Record<string, unknown>, claim: string): string | undefined {
  const value = claims[claim];
  return typeof value === "string" && value.trim() !== "" ? oneLine(value, MAX_SHOWN) : undefined;
}

/** A claim holding a list: an array of strings, or one string (a single membership, as a single-valued mapper sends it). */
function memberships(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (value === undefined || value === null) return [];
  const list = typeof value === "string" ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.length > MAX_MEMBERSHIPS ||
    !list.every((entry) => typeof entry === "string" && entry !== "" && entry.length <= MAX_IDENTIFIER)
  ) {
    throw new ClaimsError(`the token's ${claim} claim must be a list of at most ${MAX_MEMBERSHIPS} strings of 1 to ${MAX_IDENTIFIER} characters`);
  }
  return list as string[];
}

/**
 * The person a verified access token's claims name. `sub` is required; `name` (else
 * `preferred_username`, `upn`, `unique_name`) and `email` are kept for display, on one line;
 * `client_id` (else `azp`, `appid`) names the client; `groups` and `roles` are what the policy's
 * roles match on.
 */
export function personFromClaims(claims: Record<string, unknown>): Person {
  const subject = identifier(claims, "sub");
  if (subject === undefined) throw new ClaimsError("the token has no sub claim: it names no one");
  // Entra ID's v1 tokens say upn (or unique_name) and appid where others say preferred_username or email, and client_id or azp.
  const name = shown(claims, "name") ?? shown(claims, "preferred_username") ?? shown(claims, "upn") ?? shown(claims, "unique_name");
  const email = shown(claims, "email");
  const client = identifier(claims, "client_id") ?? identifier(claims, "azp") ?? identifier(claims, "appid");
  return Person.parse({
    subject,
    ...(name === undefined ? {} : { name }),
    ...(email === undefined ? {} : { email }),
    ...(client === undefined ? {} : { client }),
    groups: memberships(claims, "groups"),
    roles: memberships(claims, "roles"),
  });
}

/** What an audit record says of the person. */
export function personOnRecord(person: Person): PersonOnRecord {
  const { groups: _groups, roles: _roles, ...named } = person;
  return named;
}

/** "Alice Martin <alice@example.com> (subject alice, via client treasury-desk)", sanitised for display. */
export function describePerson(person: PersonOnRecord): string {
  // Records come from a log that may be older or edited: one line again here.
  const name = person.name === undefined ? null : oneLine(person.name, MAX_SHOWN);
  const email = person.email === undefined ? null : oneLine(person.email, MAX_SHOWN);
  const who = [name, email === null ? null : name === null ? email : `<${email}>`].filter((part) => part !== null).join(" ");
  const subject = oneLine(person.subject, MAX_IDENTIFIER);
  const client = person.client === undefined ? "" : `, via client ${oneLine(person.client, MAX_IDENTIFIER)}`;
  return who === "" ? `subject ${subject}${client}` : `${who} (subject ${subject}${client})`;
}
