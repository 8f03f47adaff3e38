import { z } from "zod";

/** An account named by its integer id or by its name. */
export const AccountReference = z.union([z.int().positive(), z.string().min(1)]);
export type AccountReference = z.infer<typeof AccountReference>;

/** An amount in base units. */
export const BaseAmount = z.bigint().nonnegative();

/**
 * The earlier identical write a person repeats on purpose: the transaction id the dry run's
 * DUPLICATE_OF_RECENT finding names, or its correlation reference while its outcome is unknown.
 * Only the newest earlier write is accepted, so a stale or guessed value never passes.
 */
export const RepeatOf = z.string().regex(/^(?:[1-9][0-9]{0,15}|cw-[0-9a-f]{20})$/, "must be the transaction id (digits) or the reference (cw-...) that DUPLICATE_OF_RECENT names");

/** Fields of every write: set by the road when confirming (correlation_id), or by the person repeating a write (repeat_of). */
export const COMMON_FIELDS = { correlation_id: z.string().optional(), repeat_of: RepeatOf.optional() };

/** Fields of a write on an account. */
export const ON_ACCOUNT = { account: AccountReference, ...COMMON_FIELDS };

/** Fields of a write on a Solana stake of an account. */
export const ON_STAKE = { ...ON_ACCOUNT, stake_uid: z.string().min(1) };
