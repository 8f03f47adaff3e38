import type { IncomingMessage } from "node:http";
import { describePerson, personOnRecord, type Person } from "@custody/shared";
import type { ConfirmSignIn, ServerContext } from "../server/server-context.js";
import type { PageTarget } from "./page-handle.js";
import { sessionPerson } from "./page-session.js";
import { SIGN_IN_PATH } from "./page-paths.js";

/** A page the person is shown instead of the write. */
export interface PageRefusal {
  status: number;
  title: string;
  lines: string[];
  link?: { href: string; text: string };
}

/** Why someone signed in is not shown another person's write. */
export function notTheirs(person: Person): string {
  return (
    `You are signed in as ${describePerson(personOnRecord(person))}; this write was prepared for ` +
    "another person, and only they can see or confirm it. Nothing was sent."
  );
}

/** Who decides a page's write and in which context: the single user, or the signed-in person the write was prepared for. */
export type PageSigner = { ctx: ServerContext; person: Person | null } | { refusal: PageRefusal };

/**
 * A single user's page needs no sign-in (its key decides). A signed-in person's page is shown and
 * decided only with the page's session naming that same person (their subject, as their MCP
 * client's token named it): without one, the person is asked to sign in at the issuer; anyone else
 * is refused. Their role (from the session) gives the context, as it gives their MCP session's.
 */
export function pageSigner(req: IncomingMessage, ctx: ServerContext, target: PageTarget, id: string, signIn: ConfirmSignIn | null): PageSigner {
  if (target.person === null) return { ctx, person: null };
  if (signIn === null) {
    return {
      refusal: {
        status: 403,
        title: "Sign-in not available",
        lines: [
          "This server does not sign people in on its confirmation page (no --confirm-client-id): confirm in an MCP client that shows forms. Nothing was sent.",
        ],
      },
    };
  }
  const person = sessionPerson(ctx.tokens, req, Date.now());
  if (person === null) {
    if (req.method !== "GET")
      return { refusal: { status: 403, title: "Refused", lines: ["You are not signed in on this page (or your sign-in expired). Nothing was sent."] } };
    return {
      refusal: {
        status: 200,
        title: "Sign in to confirm",
        lines: [
          "An assistant prepared a write that only you can confirm. Sign in at your identity provider to see it; nothing is sent unless you then confirm it.",
        ],
        link: { href: `${SIGN_IN_PATH}${id}`, text: "Sign in" },
      },
    };
  }
  if (person.subject !== target.person) {
    return { refusal: { status: 403, title: "Refused", lines: [notTheirs(person)] } };
  }
  return { ctx: ctx.forPerson(person), person };
}
