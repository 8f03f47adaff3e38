import type { IncomingMessage } from "node:http";
import { Person, type Policy } from "@custody/shared";
import { z } from "zod";
import type { ConfirmationTokens } from "../server/confirmation-token.js";
import { cookieOf, fitsCookie, mintSigned, openSigned, setCookie } from "./signed-cookie.js";

const SESSION_COOKIE = "custody_confirm_session";
const PURPOSE = "custody.confirm-page-session.v1";
/** Long enough to read a dry run and decide; a later page signs in again (at the issuer, often without a password). */
export const SESSION_SECONDS = 600;
const SessionValue = z.object({ person: Person });

/**
 * The person with only the groups and roles the policy's roles name: the same role (what decides
 * the operator, the tools and the limits), in a cookie of bounded size whatever the issuer lists.
 */
function asThePolicyMatches(policy: Policy, person: Person): Person {
  const named = (pick: (when: { groups?: string[]; roles?: string[] }) => string[] | undefined) =>
    new Set((policy.roles ?? []).flatMap((role) => pick(role.when) ?? []));
  const groups = named((when) => when.groups);
  const roles = named((when) => when.roles);
  return { ...person, groups: person.groups.filter((group) => groups.has(group)), roles: person.roles.filter((role) => roles.has(role)) };
}

/**
 * The page's session, after the person signed in at the issuer: who they are (as their access token
 * said), HMAC-signed under the token secret, HttpOnly, SameSite=Strict (no other site's page can
 * post with it), Secure behind TLS, for SESSION_SECONDS. Null when it would not fit in a cookie.
 */
export function sessionCookie(tokens: ConfirmationTokens, policy: Policy, person: Person, now: number, secure: boolean): string | null {
  const value = mintSigned(tokens, PURPOSE, { person: asThePolicyMatches(policy, person) }, now + SESSION_SECONDS * 1000);
  return fitsCookie(value) ? setCookie(SESSION_COOKIE, value, { maxAgeSeconds: SESSION_SECONDS, sameSite: "Strict", secure }) : null;
}

/** The person the request's session names, or null (none, expired, altered, or minted for another purpose). */
export function sessionPerson(tokens: ConfirmationTokens, req: IncomingMessage, now: number): Person | null {
  return openSigned(tokens, PURPOSE, cookieOf(req, SESSION_COOKIE), SessionValue, now)?.person ?? null;
}
