import { z } from "zod";
import type { FieldIssue } from "./field-issues.js";
import { english, localText, renderText, type LocalText, type Translate } from "../l10n/translate.js";

/**
 * The longest text each kind of input may be, in UTF-16 code units (what `.length` counts),
 * checked before anything reads it: a 3-million-digit amount would take seconds to convert, a
 * megabyte of recipient would be copied into every answer and record. Each is a generous bound on
 * what the field can legitimately hold. Every surface (MCP tools and prompts, the extension's
 * input boxes, shared's builders and unit parsing) uses these.
 */
export const INPUT_LIMITS = {
  /** A decimal amount: the 78 digits of 2^256, a point, one spare. */
  amount: 80,
  /** A unit code: SOL, lamport, planck, Gwei. */
  unit: 16,
  /** An address (recipient, validator, contract): the longest form is 48 characters (SS58). */
  address: 128,
  /** An account's name, as the workspace shows it. */
  account_name: 256,
  /** An API operator's name (the module's own limit). */
  operator_name: 128,
  /** A note's title or content. */
  note: 500,
  /** Text searched in notes. */
  label: 500,
  /** Hex call data of a contract call: 32 KiB of data (a deposit takes 842 characters). */
  contract_data: 65_536,
  /** A Solana stake uid (a UUID is 36). */
  stake_uid: 64,
  /** An invitation UUID (36). */
  uuid: 64,
  /** A currency identifier (solana_testnet). */
  currency: 64,
  /** A Polkadot rewards destination (Staked, Stash, Controller, None, Account). */
  payee: 64,
  /** A confirmation token (about 80). */
  confirmation_token: 1024,
  /** The earlier write a person repeats on purpose: a transaction id, or a reference (cw- and 20 hex digits). */
  repeat_of: 64,
  /** A write's correlation reference (cw- and 20 hex digits). */
  reference: 64,
  /** A moment of a window (since, until): ISO 8601 with an offset takes 29. */
  timestamp: 40,
  /** The module's base URL. */
  base_url: 2048,
  /** A gateway's bearer token. */
  access_token: 4096,
} as const;

export type LimitedInput = keyof typeof INPUT_LIMITS;

/** "at most 80 characters, got 3000000": the rule a too-long input breaks, after its field name. */
export function lengthRuleText(max: number, length: number): LocalText {
  return localText("at most {0} characters, got {1}", max, length);
}

export function lengthRule(max: number, length: number): string {
  return renderText(lengthRuleText(max, length));
}

/**
 * A string of at most `max` characters. The length is checked first and stops the parse
 * (`abort`): no later check, refinement or transform reads a text that is too long. `expected`,
 * when given, is the rule a value that is not a string breaks ("a string: the account's id...").
 */
export function boundedText(max: number, expected?: string) {
  const typeError =
    expected === undefined
      ? undefined
      : (issue: { input?: unknown }) => `must be ${expected}, got ${typeof issue.input === "number" ? `the number ${issue.input}` : typeof issue.input}`;
  return z
    .string(typeError === undefined ? undefined : { error: typeError })
    .max(max, { abort: true, error: (issue) => lengthRule(max, typeof issue.input === "string" ? issue.input.length : 0) });
}

/** The issue with a text longer than `max`, if any (a builder's check, before its format checks). */
export function lengthIssue(field: string, value: unknown, max: number): FieldIssue | undefined {
  return typeof value === "string" && value.length > max ? { path: field, message: lengthRule(max, value.length) } : undefined;
}

/** `${field}: at most N characters, got M` for a text longer than `max`, else undefined. */
export function lengthProblem(field: string, text: string, max: number, t: Translate = english): string | undefined {
  return text.length > max ? t("{0}: {1}", field, renderText(lengthRuleText(max, text.length), t)) : undefined;
}
