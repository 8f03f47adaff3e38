import { z } from "zod";
import { INPUT_LIMITS, lengthRule } from "./input-limits.js";

const DIGITS = /^[0-9]+$/;

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "an array" : "an object";
  return String(value);
}

const BASE_UNITS_RULE = "must be a non-negative whole number of base units (digits only, no sign, decimal point or exponent)";

/** A raw base-unit quantity as it may arrive: digits in a string, a safe integer, or a bigint. */
const RawBaseUnits = z
  .union([z.string(), z.number(), z.bigint()], {
    error: (issue) => (issue.input === undefined ? "required: a whole number of base units" : `${BASE_UNITS_RULE}, got ${describe(issue.input)}`),
  })
  .superRefine((value, ctx) => {
    // Converting millions of digits to a bigint takes seconds: no amount has more than 78.
    if (typeof value === "string" && value.length > INPUT_LIMITS.amount) {
      ctx.addIssue({ code: "custom", message: lengthRule(INPUT_LIMITS.amount, value.length) });
      return;
    }
    const ok = typeof value === "string" ? DIGITS.test(value) : typeof value === "number" ? Number.isSafeInteger(value) && value >= 0 : value >= 0n;
    if (!ok) ctx.addIssue({ code: "custom", message: `${BASE_UNITS_RULE}, got ${describe(value)}` });
  });

function toBigInt(value: string | number | bigint): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

/** Base units sent as a decimal string on the wire (transaction amounts, account balances). */
export const BaseUnitsString = z.codec(RawBaseUnits, z.bigint().nonnegative(), {
  decode: toBigInt,
  encode: (value) => value.toString(),
});

/** Base units sent as a JSON integer on the wire (Polkadot balances, Solana stake balances). */
export const BaseUnitsInteger = z.codec(RawBaseUnits, z.bigint().nonnegative(), {
  decode: toBigInt,
  encode: (value) => value,
});

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/**
 * An ISO 8601 timestamp, with or without an offset (Solana stakes' created_on has none).
 * Kept as the service wrote it; use timestampToDate to read it, which takes no offset as UTC.
 */
export const Timestamp = z.string().regex(ISO_TIMESTAMP, { message: "must be an ISO 8601 timestamp such as 2024-01-31T12:00:00Z or 2024-01-31T12:00:00.000" });

export function timestampToDate(timestamp: string): Date {
  const hasOffset = /(Z|[+-]\d{2}(:?\d{2})?)$/.test(timestamp.slice(10));
  const date = new Date(hasOffset ? timestamp : `${timestamp.replace(" ", "T")}Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a valid timestamp: ${timestamp}`);
  return date;
}

/** Hex-encoded bytes, with or without 0x, an even number of digits. */
export const HexString = z
  .string()
  .regex(/^(0x)?([0-9a-fA-F]{2})*$/, { message: "must be hex-encoded bytes: an optional 0x then an even number of hex digits" });

export const Note = z.looseObject({
  title: z.string(),
  content: z.string(),
});
export type Note = z.infer<typeof Note>;

/** The list envelope of the service: `{ edges: [{cursor, node}], page_info: {count, has_next_page} }`. */
export function pageOf<T extends z.ZodType>(node: T) {
  return z.looseObject({
    edges: z.array(z.looseObject({ cursor: z.int(), node })),
    page_info: z.looseObject({
      count: z.int().nonnegative(),
      has_next_page: z.boolean(),
    }),
  });
}

export const PageQuery = z.object({
  page: z.int().positive().optional(),
  page_size: z.int().positive().max(1000).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;
