import { sanitizeUntrustedText, type RuleMember } from "@custody/shared";
import { z } from "zod";

/**
 * A record from the workspace, every field passed through (amounts as AmountView, text
 * sanitised): an object, its fields those of the spec's record.
 */
export const Entity = z.looseObject({});

/** An amount in both units, as shared's formatAmount writes it. */
export const AmountView = z.object({ base_units: z.string(), display: z.string(), unit: z.string() });

/** A unit of a currency: its code and its magnitude (10^magnitude base units). */
export const UnitView = z.looseObject({ code: z.string(), magnitude: z.number() });

/** An account as an answer names it: its id, and its name sanitised. */
export const AccountRef = z.object({ id: z.number(), name: z.string() });

/** A rule's member as an answer names it: the username sanitised, and whether it is an API operator (nothing else of the workspace's record). */
export const MemberView = z.object({ username: z.string(), is_api: z.boolean() });

export function memberView(member: RuleMember): z.infer<typeof MemberView> {
  return { username: sanitizeUntrustedText(member.username), is_api: member.is_api };
}
