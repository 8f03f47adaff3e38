import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { requestOriginRefusal } from "../server/request-origin.js";
import type { ConfirmPageLinks, ConfirmSignIn, ServerContext } from "../server/server-context.js";
import { CONFIRM_PATH, isSignInRoute } from "./page-paths.js";
import { pageId, pageSecret, type PageTarget } from "./page-handle.js";
import { PAGE_HEADERS, pageHtml } from "./page-html.js";
import type { PersonOpener } from "./person-opener.js";

/** The pages this process remembers opening for the person, so a model's repeated calls open no more tabs. */
const MAX_REMEMBERED_OPENS = 1000;

/**
 * Where this process serves its confirmation pages: the HTTP server's own origin once it listens
 * (serveAt), or else a loopback listener opened on demand (127.0.0.1, a random port, only the
 * confirm routes) the first time a page is needed: a stdio server has no listener of its own.
 * The link that confirms carries the page's secret (`?key=`) and goes only to the opener, the
 * person's browser, once per page in this process: never to an answer, a log line or the audit.
 */
export class ConfirmPages implements ConfirmPageLinks {
  #served: string | null = null;
  #signIn: ConfirmSignIn | null = null;
  #loopback: Promise<{ server: Server; origin: string }> | null = null;
  readonly #opener: PersonOpener | null;
  readonly #opened = new Set<string>();

  constructor(
    opener: PersonOpener | null = null,
    readonly decisionPollMs?: number,
  ) {
    this.#opener = opener;
  }

  /** The HTTP server's origin, as its clients (and the person's browser) reach it, and on a team server the page's sign-in. */
  serveAt(origin: string, signIn: ConfirmSignIn | null): void {
    this.#served = origin;
    this.#signIn = signIn;
  }

  /** How a signed-in person's page signs them in; null: no sign-in (a single user's server, or no --confirm-client-id). */
  get signIn(): ConfirmSignIn | null {
    return this.#signIn;
  }

  get signsIn(): boolean {
    return this.#signIn !== null;
  }

  /**
   * The read-only link to the page of this dry run, opening the loopback listener if nothing serves
   * pages yet, and the first time, the person's link (with the secret) in their browser; null
   * when there is no opener. A signed-in person's page is decided by signing in on it, not by a key:
   * its link is the one to give them (nothing is opened: their browser is not on this machine);
   * null when the page cannot sign them in.
   */
  async link(ctx: ServerContext, target: PageTarget): Promise<string | null> {
    if (target.person !== null) return this.#signIn === null ? null : (await this.#page(ctx, target)).link;
    // Without an opener no one could confirm on a page: none is served.
    if (this.#opener === null) return null;
    const { id, link } = await this.#page(ctx, target);
    if (!this.#opened.has(id)) {
      // Forgetting the oldest at worst opens a page a second time.
      if (this.#opened.size >= MAX_REMEMBERED_OPENS) this.#opened.delete(this.#opened.values().next().value as string);
      this.#opened.add(id);
      this.#opener(`${link}?key=${pageSecret(ctx.tokens, id)}`);
    }
    return link;
  }

  /**
   * The person's own link, with the page's secret: only for a URL elicitation, which the client shows
   * the person, never the model. A signed-in person's needs none: they sign in on the page.
   */
  async personLink(ctx: ServerContext, target: PageTarget): Promise<string> {
    const { id, link } = await this.#page(ctx, target);
    return target.person !== null ? link : `${link}?key=${pageSecret(ctx.tokens, id)}`;
  }

  async #page(ctx: ServerContext, target: PageTarget): Promise<{ id: string; link: string }> {
    const origin = this.#served ?? (await (this.#loopback ??= openLoopback(ctx))).origin;
    const id = pageId(ctx.tokens, target);
    return { id, link: `${origin}${CONFIRM_PATH}${id}` };
  }

  async close(): Promise<void> {
    const loopback = await this.#loopback;
    if (loopback === undefined || loopback === null) return;
    await new Promise<void>((resolve) => {
      loopback.server.close(() => resolve());
      loopback.server.closeAllConnections();
    });
  }
}

/** A confirm route of any server: Host (and Origin when sent) checked as the MCP endpoint checks them, then the page. */
export async function serveConfirmRoute(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ServerContext,
  port: number,
  publicOrigin: string | null,
): Promise<void> {
  const refusal = requestOriginRefusal(req, port, publicOrigin);
  if (refusal) {
    res.writeHead(403, PAGE_HEADERS);
    return void res.end(pageHtml("Forbidden", [refusal.message]));
  }
  const host = (req.headers.host ?? "").toLowerCase();
  const origin = publicOrigin !== null && new URL(publicOrigin).host === host ? publicOrigin : `http://${host}`;
  const signIn = ctx.pages.signIn;
  // The page and its sign-in (every write's definition the page names, the issuer's token checks) load when first asked for: a start builds none of it.
  if (isSignInRoute(req)) {
    const { answerSignInRoute } = await import("./sign-in-routes.js");
    return answerSignInRoute(req, res, ctx, signIn);
  }
  const { answerConfirmPage } = await import("./confirm-routes.js");
  await answerConfirmPage(req, res, ctx, origin, signIn);
}

async function openLoopback(ctx: ServerContext): Promise<{ server: Server; origin: string }> {
  let port = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!path.startsWith(CONFIRM_PATH)) {
      res.writeHead(404, PAGE_HEADERS);
      return void res.end(pageHtml("Not found", ["This listener serves only confirmation pages."]));
    }
    serveConfirmRoute(req, res, ctx, port, null).catch(() => {
      if (!res.headersSent) res.writeHead(500, PAGE_HEADERS);
      res.end(pageHtml("Internal error", ["Nothing was sent by this page."]));
    });
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server.address() as AddressInfo));
  });
  port = address.port;
  // It must not keep a stdio server alive after its client leaves.
  server.unref();
  return { server, origin: `http://127.0.0.1:${port}` };
}
