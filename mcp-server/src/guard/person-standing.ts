import { FileGuardStore, intentWrite, SealedIntent, usedStanding, type GuardStore, type UsedStanding, type WriteTrace } from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ServerContext } from "../server/server-context.js";
import type { TokenBinding } from "../server/confirmation-token.js";
import { writeError, type ConfirmField } from "./write-answers.js";
import { writeResult } from "./write-output.js";

/** Where else the person can confirm a write this client cannot ask about. */
const IN_A_FORM = "in an MCP client that shows forms (the same call with the same reference asks them there)";
/** The extension lists a single user's waiting writes from the file store it shares with this server (it signs no one in). */
const IN_VS_CODE = "in VS Code's Custody: Waiting for You view (when the extension shares this server's guard store)";

/** The places besides the page: the form, and for a single user on a file store the extension's view. */
function elsewhere(store: GuardStore, bound: TokenBinding): string {
  return bound.person === null && store instanceof FileGuardStore ? `${IN_A_FORM}, or ${IN_VS_CODE}` : IN_A_FORM;
}

/**
 * Where the page is, as the answer says it: a single user's link shows it read-only (the server
 * opened the one that confirms in their browser); a signed-in person's is theirs to open, since only
 * signing in on it as that person shows and confirms the write (the model cannot sign in as them).
 */
async function pageWhere(ctx: Pick<ServerContext, "pages" | "forPerson" | "road">, reference: string, bound: TokenBinding): Promise<string> {
  const link = await ctx.pages.link(ctx.forPerson(null), { reference, ...bound });
  const others = elsewhere(ctx.road.store, bound);
  if (link === null) return others;
  if (bound.person !== null)
    return `on the confirmation page ${link}, signing in there as themselves (give them the link: only they can sign in, see it and confirm), or ${others}`;
  return `on the confirmation page this server opened in their browser (${link} shows it read-only: it cannot confirm), or ${others}`;
}

/**
 * Where a person-mode write stands, for a client that cannot ask the person: read from the guard's
 * store without using anything up, so the call can be repeated on any replica. Nothing here sends.
 * `shownWhere`: where the person was already shown the page (its client); null: the page this server opens.
 * `field`: what the call confirms with, so the answer says how to call again (token mode's page round trip reads here too).
 */
export async function personStanding(
  reference: string,
  intent: TokenBinding & { nonce: string },
  ctx: Pick<ServerContext, "road" | "now" | "pages" | "forPerson">,
  shownWhere: string | null = null,
  field: ConfirmField = "reference",
): Promise<CallToolResult> {
  const store = ctx.road.store;
  const standing = await store.lookUpIntent(intent.nonce);
  switch (standing.outcome) {
    case "open": {
      const expiresAt = SealedIntent.parse(JSON.parse(standing.sealed)).expires_at;
      if (ctx.now().getTime() >= expiresAt) return expiredAnswer(reference, `the dry run expired at ${new Date(expiresAt).toISOString()}`);
      const until = new Date(expiresAt).toISOString();
      const where = shownWhere ?? (await pageWhere(ctx, reference, intent));
      return writeResult(
        // The link is in the text only: every write tool's output schema would carry the field (tools/list's wire budget).
        { status: "waiting_for_person", reference, expires_at: until },
        "WAITING FOR THE PERSON, nothing sent yet: only they can confirm this write, " +
          `${field === "reference" ? "and this client cannot ask them" : "on the page"}. They confirm ${where}, until ${until}. Call again with the same arguments and ${sameField(field, reference)} ` +
          "to learn the outcome; do not run a new dry run (it would void this one).",
      );
    }
    case "reused":
      return usedAnswer(reference, await usedStanding(store, standing.reference), field);
    case "superseded":
      return writeError("refused", "a newer dry run of the same write was made since: only its confirmation counts. Nothing was sent", {
        reason: "superseded",
        reference,
      });
    case "unknown": {
      // An intent is forgotten once expired, its write (confirmed until its expiry) is not: a retried call learns what it became.
      // Only its own person's call does: the reference is in the transaction's notes, and another's write is not theirs to follow.
      const wrote = await ownForgottenWrite(store, reference, intent);
      if (wrote !== null) return usedAnswer(reference, wrote, field);
      return expiredAnswer(
        reference,
        "this dry run is not known to the guard's store (expired and forgotten, made against another store, or for another tool, operator or person)",
      );
    }
  }
}

/**
 * The write a reference names whose intent the store forgot, when it is this intent's: the same operator and tool, made
 * for this person (one whose trace names no person, a single user's or written by an earlier version, is taken as theirs).
 */
export async function ownForgottenWrite(store: GuardStore, reference: string, intent: TokenBinding): Promise<WriteTrace | null> {
  const wrote = await intentWrite(store, reference);
  if (wrote === null || wrote.operator !== intent.operator || wrote.tool !== intent.tool) return null;
  return wrote.person === undefined || wrote.person === intent.person ? wrote : null;
}

/** The field a call comes back with, as an answer names it: the reference itself, or the token (never repeated in an answer). */
function sameField(field: ConfirmField, reference: string): string {
  return field === "reference" ? `reference "${reference}"` : "confirmation_token";
}

function expiredAnswer(reference: string, why: string): CallToolResult {
  return writeResult(
    { status: "expired", reference, error: `${why}: nothing was sent` },
    `EXPIRED: ${why}; nothing was sent. Run a new dry run if the person still wants it.`,
    true,
  );
}

/** Whether a used intent's answer is final: stopped, or its write answered (not in flight, not yet reserved). */
export function usedSettled(standing: UsedStanding): boolean {
  return standing === "stopped" || (standing !== "under_way" && standing.status !== "in_flight");
}

/**
 * A person-mode intent that was used: the write it went on to, declined or stopped before reserving, or still under way: a
 * confirmation between its use and its reservation (checked again on fresh data) may still send, so it is never said declined.
 */
function usedAnswer(reference: string, trace: UsedStanding, field: ConfirmField): CallToolResult {
  if (trace === "under_way") {
    const message = "the person's decision was taken and the write is being checked before it is sent (or the process handling it stopped before sending)";
    return writeResult(
      { status: "uncertain", reference, looked_up: false, error: message },
      `UNCERTAIN: ${message}. Call again with the same ${sameField(field, reference)} to learn the outcome; never send it again.`,
      true,
    );
  }
  if (trace === "stopped") {
    return writeResult(
      { status: "declined", reference, error: "the person declined it, or a check stopped it before sending: nothing was sent" },
      "DECLINED: the person declined it, or a check stopped it before sending; nothing was sent. Do not retry unless the person asks again.",
      true,
    );
  }
  if (trace.status === "submitted" && trace.transaction_id !== null) {
    return writeResult(
      { status: "submitted", reference, transaction_id: trace.transaction_id },
      `SUBMITTED: the person confirmed it; transaction ${trace.transaction_id}. get_transaction ${trace.transaction_id} shows where it stands.`,
    );
  }
  if (trace.status === "not_applied") return writeError("failed", "the person confirmed it, but it was not applied", { reference });
  const message =
    trace.status === "in_flight" ? "the person confirmed it and it is being sent" : "the person confirmed it; its outcome is not known yet (it may be applied)";
  return writeResult(
    { status: "uncertain", reference, looked_up: false, error: message },
    `UNCERTAIN: ${message}. Call again with the same ${sameField(field, reference)} to learn more; never send it again.`,
    true,
  );
}
