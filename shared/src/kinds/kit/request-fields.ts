import { z } from "zod";
import { boundedText, INPUT_LIMITS } from "../../schemas/input-limits.js";

/** An account named by its integer id or by its name. */
export const AccountReference = z.union([z.int().positive(), boundedText(INPUT_LIMITS.account_name).min(1)]);
export type AccountReference = z.infer<typeof AccountReference>;

/** An amount in base units. */
export const BaseAmount = z.bigint().nonnegative();

/**
 * The earlier identical write a person repeats on purpose: the transaction id the dry run's
 * DUPLICATE_OF_RECENT finding names, or while its outcome is unknown its correlation reference
 * followed by ":may-pay-twice", the person's acknowledgement that it may already be applied.
 * Only the newest earlier write is accepted, so a stale or guessed value never passes.
 */
export const RepeatOf = boundedText(INPUT_LIMITS.repeat_of).regex(
  /^(?:[1-9][0-9]{0,15}|cw-[0-9a-f]{20}(?::may-pay-twice)?)$/,
  "must be the transaction id (digits), or the reference with :may-pay-twice (cw-...:may-pay-twice), that DUPLICATE_OF_RECENT names",
);

/** Fields of every write: set by the road when confirming (correlation_id), or by the person repeating a write (repeat_of). */
export const COMMON_FIELDS = { correlation_id: boundedText(INPUT_LIMITS.reference).optional(), repeat_of: RepeatOf.optional() };

/** Fields of a write on an account. */
export const ON_ACCOUNT = { account: AccountReference, ...COMMON_FIELDS };

/** Fields of a write on a Solana stake of an account. */
export const ON_STAKE = { ...ON_ACCOUNT, stake_uid: boundedText(INPUT_LIMITS.stake_uid).min(1) };

/** An address a write names (recipient, validator, contract). */
export const WriteAddress = boundedText(INPUT_LIMITS.address).min(1);
