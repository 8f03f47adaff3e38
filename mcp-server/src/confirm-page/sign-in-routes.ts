import type { IncomingMessage, ServerResponse } from "node:http";
import { describePerson, personOnRecord } from "@custody/shared";
import type { ConfirmSignIn, ServerContext } from "../server/server-context.js";
import { openPageId } from "./page-handle.js";
import { linkHtml, PAGE_HEADERS, pageHtml } from "./page-html.js";
import { pathOf, CALLBACK_PATH, CONFIRM_PATH, SIGN_IN_PATH } from "./page-paths.js";
import { sessionCookie, sessionPerson } from "./page-session.js";
import { SignInError } from "./page-sign-in.js";
import { notTheirs } from "./page-signer.js";
import { flowCookie, newFlow, openFlow, spentFlowCookie } from "./sign-in-flow.js";

const AGAIN = "Open the confirmation link again to start over. Nothing was sent.";

function page(res: ServerResponse, status: number, title: string, lines: readonly string[], cookies: string[] = [], link = ""): void {
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  res.writeHead(status, PAGE_HEADERS);
  res.end(pageHtml(title, lines, null, link));
}

function redirect(res: ServerResponse, location: string, cookies: string[] = []): void {
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  res.writeHead(303, { ...PAGE_HEADERS, Location: location });
  res.end();
}

/**
 * `GET /confirm/sign-in/<id>`: the person, already signed in on the page, goes back to it; otherwise
 * to the issuer, their flow (PKCE verifier, state, page) in a signed cookie their browser keeps.
 * `GET /confirm/callback`: the issuer's redirect; the code is exchanged and its token checked, and
 * the person, if they are the one the page is for, gets the page's session. The session is
 * SameSite=Strict, so it is not sent on this cross-site redirect's chain: the answer is a page
 * whose same-origin link leads on to the confirmation, where it is.
 */
export async function answerSignInRoute(req: IncomingMessage, res: ServerResponse, ctx: ServerContext, signIn: ConfirmSignIn | null): Promise<void> {
  if (signIn === null) return page(res, 404, "Not found", ["This server does not sign people in on its confirmation page."]);
  if (req.method !== "GET") {
    res.setHeader("Allow", "GET");
    return page(res, 405, "Method not allowed", ["Signing in is a GET."]);
  }
  const path = pathOf(req);
  if (path === CALLBACK_PATH) return callback(req, res, ctx, signIn);
  const id = path.slice(SIGN_IN_PATH.length);
  const target = openPageId(ctx.tokens, id);
  if (target?.person == null) return page(res, 404, "No such confirmation", ["This link is not one this server made."]);
  const now = Date.now();
  if (sessionPerson(ctx.tokens, req, now)?.subject === target.person) return redirect(res, `${CONFIRM_PATH}${id}`);
  const flow = newFlow(id);
  let location: string;
  try {
    location = await signIn.authorizationUrl(flow);
  } catch (error) {
    if (error instanceof SignInError) return page(res, 503, "Cannot sign in now", [error.message, AGAIN]);
    throw error;
  }
  return redirect(res, location, [flowCookie(ctx.tokens, flow, now, signIn.secure)]);
}

async function callback(req: IncomingMessage, res: ServerResponse, ctx: ServerContext, signIn: ConfirmSignIn): Promise<void> {
  const now = Date.now();
  const params = new URL(req.url ?? "/", "http://localhost").searchParams;
  const flow = openFlow(ctx.tokens, req, now);
  const spent = [spentFlowCookie(signIn.secure)];
  // The state binds the redirect to the sign-in this browser started: another's code is not taken (login CSRF).
  if (flow === null || params.get("state") !== flow.state)
    return page(res, 400, "Sign-in not recognised", ["This browser did not start this sign-in here, or it took longer than 10 minutes.", AGAIN], spent);
  const error = params.get("error");
  if (error !== null) return page(res, 403, "Not signed in", [`The identity provider did not sign you in: ${error.slice(0, 100)}.`, AGAIN], spent);
  const code = params.get("code");
  if (code === null || code.length > 2048) return page(res, 400, "Not signed in", ["The identity provider's answer carries no code.", AGAIN], spent);
  let person;
  try {
    person = await signIn.personFromCode(code, flow);
  } catch (failure) {
    if (failure instanceof SignInError) return page(res, 403, "Not signed in", [failure.message, AGAIN], spent);
    throw failure;
  }
  const target = openPageId(ctx.tokens, flow.page);
  if (target === null || target.person !== person.subject) {
    return page(res, 403, "Refused", [notTheirs(person)], spent);
  }
  const session = sessionCookie(ctx.tokens, ctx.policy, person, now, signIn.secure);
  if (session === null)
    return page(
      res,
      403,
      "Not signed in",
      ["What your token says of you (the groups and roles this server's roles name) does not fit in a cookie.", AGAIN],
      spent,
    );
  return page(
    res,
    200,
    "Signed in",
    [`You are signed in as ${describePerson(personOnRecord(person))}.`],
    [...spent, session],
    linkHtml(`${CONFIRM_PATH}${flow.page}`, "Continue to the confirmation"),
  );
}
