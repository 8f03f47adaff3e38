import { localText } from "../l10n/translate.js";
import { refusal, type Refusal, type RoadCheck } from "./road-check.js";
import type { SealedIntent } from "./road-types.js";

/** An open intent and who asks to confirm it now. */
export interface IntentAsked {
  sealed: SealedIntent;
  /** The tool the confirmation is made with. */
  tool: string;
  /** The subject of the person who asks, or null (a single user). */
  person: string | null;
  /** The base URL of the custody service the confirmation would be sent to. */
  service: string;
  /** The store's time, ms. */
  now: number;
}

/** A confirmation is made with the tool of its dry run. */
export const sameTool = ({ sealed, tool }: IntentAsked): Refusal | null =>
  sealed.tool === tool ? null : refusal("other_tool", localText("the confirmation is for {0}, not {1}; run a new dry run with {1}", sealed.tool, tool));

/** Only the person who ran the dry run confirms it. */
export const samePerson = ({ sealed, person }: IntentAsked): Refusal | null =>
  sealed.person === person
    ? null
    : refusal("other_person", localText("the confirmation belongs to another person: only the person who ran the dry run can confirm it"));

/** A dry run is sent to the service it was planned against: the same operator and account id elsewhere are another workspace's. */
export const sameService = ({ sealed, service }: IntentAsked): Refusal | null =>
  sealed.service === undefined || sealed.service === service
    ? null
    : refusal(
        "other_service",
        localText(
          "the dry run was made against the custody service at {0}, not {1}: confirm it where it was made, or run a new dry run here",
          sealed.service,
          service,
        ),
      );

/** A dry run is confirmed before it expires. */
export const notExpired = ({ sealed, now }: IntentAsked): Refusal | null =>
  now < sealed.expires_at ? null : refusal("expired", localText("the dry run expired at {0}; run a new dry run", new Date(sealed.expires_at).toISOString()));

/** What an open intent is held to before it is used, in order. */
export const INTENT_CHECKS: readonly RoadCheck<IntentAsked>[] = [sameTool, samePerson, sameService, notExpired];
