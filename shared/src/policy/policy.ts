import { readFileSync } from "node:fs";
import { z } from "zod";
import { AmountInUnit } from "../units/amount-in-unit.js";
import { formatIssues } from "../schemas/validation-message.js";

export const Toolset = z.enum(["read", "operators", "transactions", "solana_staking", "polkadot_staking", "ethereum_staking"]);
export type Toolset = z.infer<typeof Toolset>;

export const CurrencyLimits = z.strictObject({
  max_per_transaction: AmountInUnit.optional(),
  max_per_day: AmountInUnit.optional(),
});
export type CurrencyLimits = z.infer<typeof CurrencyLimits>;

/**
 * The operator's local policy, on top of the workspace's own governance. Lists that are
 * absent allow everything; lists that are present allow only what they name.
 */
export const Policy = z.strictObject({
  read_only: z.boolean().default(false),
  toolsets: z.array(Toolset).optional(),
  tools: z
    .strictObject({
      allow: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    })
    .optional(),
  /** Keyed by currency identifier (e.g. "polkadot"); amounts in base units or with a unit code. */
  limits: z.record(z.string(), CurrencyLimits).default({}),
  allowed_recipients: z.array(z.string()).optional(),
  allowed_validators: z.array(z.string()).optional(),
  allowed_contracts: z.array(z.string()).optional(),
});
export type Policy = z.infer<typeof Policy>;

export const DEFAULT_POLICY: Policy = Policy.parse({});

export class PolicyFileError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`policy file ${path}: ${message}`);
    this.name = "PolicyFileError";
  }
}

/** Reads and validates a policy file; any problem is an error naming the file and the field. */
export function loadPolicyFile(path: string): Policy {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new PolicyFileError(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PolicyFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  const result = Policy.safeParse(json);
  if (!result.success) throw new PolicyFileError(path, formatIssues(result.error));
  return result.data;
}
