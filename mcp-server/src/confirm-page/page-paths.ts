import type { IncomingMessage } from "node:http";

/** Where the confirmation pages are: `/confirm/<id>`, and on a team server their sign-in and its callback. */
export const CONFIRM_PATH = "/confirm/";
export const SIGN_IN_PATH = "/confirm/sign-in/";
export const CALLBACK_PATH = "/confirm/callback";

export function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://localhost").pathname;
}

/** The sign-in's own routes (a team server's page): its start and the issuer's redirect back. */
export function isSignInRoute(req: IncomingMessage): boolean {
  const path = pathOf(req);
  return path === CALLBACK_PATH || path.startsWith(SIGN_IN_PATH);
}
