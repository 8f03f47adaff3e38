import { z } from "zod";
import { AmountInUnit } from "../units/amount-in-unit.js";
import { OperatorName } from "../schemas/api-user.js";
import { formatIssues } from "../schemas/validation-message.js";
import { errorMessage } from "../untrusted/error-message.js";
import { localText, renderText, type LocalText, type TranslatableError } from "../l10n/translate.js";
import { isRefusedFile, readOwnText } from "../files/own-file.js";
import { repeatedKey } from "../json/repeated-key.js";

export const Toolset = z.enum(["read", "operators", "transactions", "solana_staking", "polkadot_staking", "ethereum_staking"]);
export type Toolset = z.infer<typeof Toolset>;

/**
 * Who confirms a write: `token`, whoever holds the dry run's confirmation token (a client that shows
 * forms asks the person first); `person`, only the person, through their client's form or the
 * server's confirmation page: nothing the model reads carries what confirms.
 */
export const ConfirmationMode = z.enum(["token", "person"]);
export type ConfirmationMode = z.infer<typeof ConfirmationMode>;

export const CurrencyLimits = z.strictObject({
  max_per_transaction: AmountInUnit.optional(),
  max_per_day: AmountInUnit.optional(),
});
export type CurrencyLimits = z.infer<typeof CurrencyLimits>;

/** Limits keyed by currency identifier (e.g. "polkadot"); amounts in base units or with a unit code. */
export const LimitsByCurrency = z.record(z.string(), CurrencyLimits);

const ToolLists = z.strictObject({
  allow: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
});

/** Which signed-in people a role is for: anyone whose token names one of these groups, roles or subjects. */
export const RoleMatch = z
  .strictObject({
    groups: z.array(z.string().min(1)).optional(),
    roles: z.array(z.string().min(1)).optional(),
    subjects: z.array(z.string().min(1)).optional(),
  })
  .refine((match) => (match.groups?.length ?? 0) + (match.roles?.length ?? 0) + (match.subjects?.length ?? 0) > 0, {
    message: "name at least one group, role or subject to match",
  });

/**
 * What the people a role matches may do, within the policy's own rules (a role only narrows):
 * its toolsets and tools, limits each person of the role has on their own, and the API operator
 * they act as.
 */
export const Role = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: "1 to 64 letters, digits, '_', '.', '-', starting with a letter or digit" }),
  when: RoleMatch,
  /** The API operator (X-Vendor-API-User) this role's people act as; absent: the server's own. */
  operator: OperatorName.optional(),
  read_only: z.boolean().default(false),
  toolsets: z.array(Toolset).optional(),
  tools: ToolLists.optional(),
  /** Each person of the role, on their own. */
  limits: LimitsByCurrency.default({}),
  /** A role may require the person's own confirmation where the policy does not (it cannot loosen the policy's). */
  confirmation: z.literal("person", { message: 'a role may only require "person" (a role narrows the policy, never loosens it)' }).optional(),
});
export type Role = z.infer<typeof Role>;

/**
 * The operator's local policy, on top of the workspace's own governance. Lists that are
 * absent allow everything; lists that are present allow only what they name.
 */
export const Policy = z.strictObject({
  read_only: z.boolean().default(false),
  toolsets: z.array(Toolset).optional(),
  tools: ToolLists.optional(),
  /** What each API operator's writes may commit (every person acting as it, together). */
  limits: LimitsByCurrency.default({}),
  /** What everyone's writes may commit together, whatever the person or operator. */
  team_limits: LimitsByCurrency.default({}),
  confirmation: ConfirmationMode.default("token"),
  /**
   * For a server people sign in to: the first role whose `when` matches a person applies to them;
   * a person no role matches may do nothing. Absent: every signed-in person has the whole policy.
   */
  roles: z
    .array(Role)
    .refine((roles) => new Set(roles.map((role) => role.name)).size === roles.length, { message: "role names must be unique" })
    .optional(),
  allowed_recipients: z.array(z.string()).optional(),
  allowed_validators: z.array(z.string()).optional(),
  allowed_contracts: z.array(z.string()).optional(),
});
export type Policy = z.infer<typeof Policy>;

export const DEFAULT_POLICY: Policy = Policy.parse({});

/** A policy file that cannot be used: its English message, and its text for a surface that tells it in its reader's language. */
export class PolicyFileError extends Error implements TranslatableError {
  readonly text: LocalText;
  constructor(
    readonly path: string,
    problem: string | LocalText,
  ) {
    const text = localText("policy file {0}: {1}", path, problem);
    super(renderText(text));
    this.text = text;
    this.name = "PolicyFileError";
  }
}

/** A policy is a few kilobytes; a file larger than this is refused unread (the opening cache's key reads no more either). */
export const POLICY_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Reads and validates a policy file; any problem is an error naming the file and the field. A link is followed (deployments
 * mount configuration as links) to a regular file only: a pipe or a device there would hold the start forever.
 */
export function loadPolicyFile(path: string): Policy {
  let text: string;
  try {
    const read = readOwnText(path, { what: "policy file", maxBytes: POLICY_FILE_MAX_BYTES, followLinks: true });
    if (read === null) throw Object.assign(new Error("absent"), { code: "ENOENT" });
    if (isRefusedFile(read))
      throw new PolicyFileError(
        path,
        read.refused === "too large"
          ? localText("holds more than {0} bytes; it is not read", POLICY_FILE_MAX_BYTES)
          : localText("is not a regular file (a pipe, a device or a folder in its place); it is not read"),
      );
    // A byte order mark (some Windows editors write one) is not part of the JSON.
    text = read.startsWith("\uFEFF") ? read.slice(1) : read;
  } catch (error) {
    if (error instanceof PolicyFileError) throw error;
    throw new PolicyFileError(path, localText("cannot be read ({0})", (error as NodeJS.ErrnoException).code ?? String(error)));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PolicyFileError(path, localText("is not valid JSON ({0})", errorMessage(error)));
  }
  const twice = repeatedKey(text);
  if (twice !== null) throw new PolicyFileError(path, localText("gives {0} twice (JSON would keep only the last); write each key once", twice.path));
  const result = Policy.safeParse(json);
  if (!result.success) throw new PolicyFileError(path, formatIssues(result.error));
  return result.data;
}
