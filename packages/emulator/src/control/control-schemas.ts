import { AccountGovernance, OperatorName } from "@custody/shared";
import { z } from "zod";

const Digits = z.string().regex(/^[0-9]+$/, { message: "must be a whole number of base units written as digits" });

export const InvitationBody = z.strictObject({
  username: OperatorName,
  device_id: z.string().regex(/^[0-9a-fA-F]{8,128}$/, { message: "must be the hex device identifier the module returned" }),
  invited_by: z.string().min(1).default("alice.admin"),
});

export const AdminApprovalBody = z.strictObject({ admin: z.string().min(1, { message: "must name an administrator" }) });

export const HumanDecisionBody = z.strictObject({
  username: z.string().min(1, { message: "must name a human approver of the rule" }),
  reason: z.string().optional(),
});

export const AdvanceClockBody = z
  .strictObject({
    seconds: z
      .int()
      .min(0)
      .max(10 * 365 * 86_400)
      .optional(),
    ms: z
      .int()
      .min(0)
      .max(10 * 365 * 86_400_000)
      .optional(),
    epochs: z.int().min(1).max(1_000_000).optional(),
  })
  .refine((body) => [body.seconds, body.ms, body.epochs].filter((value) => value !== undefined).length === 1, {
    message: "give exactly one of seconds, ms or epochs (epochs: to the start of the n-th next Solana epoch)",
  });

export const AdminRuleBody = z.strictObject({
  quorum: z.int().positive(),
  approvers: z.array(z.string().min(1)).min(1),
});

export const NewAccountBody = z.strictObject({
  name: z.string().min(1),
  currency: z.string().min(1),
  governance: AccountGovernance,
  balance: Digits.optional(),
  allow_duplicate_name: z.boolean().default(false),
});

export const RenameAccountBody = z.strictObject({
  name: z.string().min(1),
  allow_duplicate_name: z.boolean().default(false),
});

export const DepositBody = z.strictObject({ amount: Digits });

export const GovernanceBody = AccountGovernance;

export const ResetBody = z.strictObject({ seed: z.enum(["demo", "empty"]).default("demo") });

export const WebhookBody = z.strictObject({
  url: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }),
  secret: z.string().min(16, { message: "must be at least 16 characters" }),
  events: z.array(z.string().min(1)).nullable().default(null),
});

export const ScaleSeedBody = z.strictObject({
  accounts: z.int().min(0).max(100_000),
  transactions: z.int().min(0).max(1_000_000),
  operator: z.string().min(1).optional(),
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/, { message: "must be 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit" })
    .default("scale-"),
});
