import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { grantFor, newLocalSecret, type Person, errorMessage } from "@custody/shared";
import { isInitializeRequest, isJsonContentType, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { HttpOptions } from "../config/server-config.js";
import { createMcpServer } from "../assembly/create-server.js";
import { deferredContext, type ContextSource } from "../server/server-context.js";
import { isModernRevision, MODERN_REVISION } from "../server/protocol-era.js";
import { serveConfirmRoute } from "../confirm-page/confirm-pages.js";
import { CONFIRM_PATH } from "../confirm-page/page-paths.js";
import { settle } from "../shutdown/drainable.js";
import { DrainingTransport } from "../shutdown/draining-transport.js";
import { SHUTTING_DOWN, WorkInFlight } from "../shutdown/work-in-flight.js";
import { inProcessChanges, type ResourceChanges } from "../subscriptions/resource-changes.js";
import { PersonShare } from "../subscriptions/person-share.js";
import { perPersonShare } from "../subscriptions/subscription-limits.js";
import { ListenStreams } from "./listen-streams.js";
import { carriesModernClaim, isListen, modernEndpoint } from "./modern-endpoint.js";
import { IssuerKeys } from "../oauth/issuer-keys.js";
import { oauthAuthorizer } from "./oauth-authorizer.js";
import { pageSignInOf } from "../confirm-page/page-sign-in.js";
import { sharedTokenAuthorizer, type Access, type Refusal } from "./request-authorizer.js";
import { replyError } from "./error-reply.js";
import { messageRefusal } from "./message-refusal.js";
import { readBodyText, RequestTooLarge } from "./request-body.js";
import { echoableId, readClientMessage } from "../wire/client-message.js";
import { requestOriginRefusal } from "../server/request-origin.js";
import { SessionTable } from "./session-table.js";
import { webRequestOf, writeWebResponse } from "./web-exchange.js";
import { OPTIONS } from "../config/options.js";

export const MCP_PATH = "/mcp";

export interface RunningHttpServer {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  port: number;
  /** The shared bearer token clients must send; null when people sign in (OAuth). */
  token: string | null;
  /** Requests under way (unanswered requests and running tool calls). */
  readonly pending: number;
  /** Open MCP sessions. */
  readonly sessions: number;
  /**
   * Stops taking sessions and requests, lets those under way finish and their answers be written
   * (for at most graceMs), then closes. Resolves with the number left unfinished.
   */
  shutdown(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

interface Session {
  http: WebStandardStreamableHTTPServerTransport;
  transport: DrainingTransport;
  /** The subject whose token initialized the session; only that subject's tokens reach it (null: the shared token). */
  subject: string | null;
  /** The person the session was opened for: their role decided its tools and operator. */
  person: Person | null;
}

function sameMemberships(a: Person | null, b: Person | null): boolean {
  const same = (x: readonly string[], y: readonly string[]) => {
    const [one, other] = [new Set(x), new Set(y)];
    return one.size === other.size && [...one].every((item) => other.has(item));
  };
  return a === null || b === null ? a === b : same(a.groups, b.groups) && same(a.roles, b.roles);
}

/** The longest a timer waits (about 24 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A session's standing GET stream, or a subscriptions/listen stream, lives no longer than the token
 * that opened it: when the token expires the stream ends, and the client opens it again with its
 * new token (checked then).
 */
function endStreamAtExpiry(res: ServerResponse, access: Access): void {
  const expiresAt = access.authInfo?.expiresAt;
  if (expiresAt === undefined) return;
  const timer = setTimeout(() => res.end(), Math.min(MAX_TIMER_MS, Math.max(0, expiresAt * 1000 - Date.now())));
  timer.unref();
  res.once("close", () => clearTimeout(timer));
}

function tooManyOfYours(perPerson: number): string {
  return (
    `Too many sessions: you hold ${perPerson} MCP sessions on this server already, the most one person may; end one ` +
    "(DELETE with its mcp-session-id) or wait until one has been idle long enough to be closed"
  );
}

function tooManySessions(options: HttpOptions): string {
  return (
    `Too many sessions: this server holds at most ${options.maxSessions} MCP sessions at once ` +
    `(${OPTIONS.maxSessions.env}, --${OPTIONS.maxSessions.flag}); end one (DELETE ${MCP_PATH} ` +
    "with its mcp-session-id) or wait until one has been idle for " +
    `${options.sessionIdleSeconds} s (${OPTIONS.sessionIdleSeconds.env})`
  );
}

function replyRefusal(res: ServerResponse, refusal: Refusal, body?: unknown): void {
  replyError(res, refusal.status, refusal.message, { headers: refusal.headers, id: echoableId(body) });
}

/** The endpoint's methods: POST for every message, GET for a 2025 session's stream, DELETE to end a session. */
const ENDPOINT_METHODS = ["GET", "POST", "DELETE"];

/** A GET or DELETE without a session that names 2026-07-28 or later: that revision has neither (405, as the SDK's modern entry answers). */
function isModernSessionOperation(req: IncomingMessage): boolean {
  const header = req.headers["mcp-protocol-version"];
  return req.method !== "POST" && isModernRevision(typeof header === "string" ? header.trim() : "");
}

/** One request through the SDK's transport; the SDK hands the access's authInfo to every handler as ctx.http.authInfo. */
async function exchange(
  http: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  access: Access,
): Promise<void> {
  const response = await http.handleRequest(webRequestOf(req, res), { parsedBody: body, ...(access.authInfo === null ? {} : { authInfo: access.authInfo }) });
  await writeWebResponse(response, res);
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

/**
 * Streamable HTTP on one endpoint for both generations: 2025-11-25 with stateful sessions (so a
 * tool can ask the person mid-call), 2026-07-28 per request (modern-endpoint.ts); bound to
 * loopback. Every request must pass the Host/Origin check, then carry the shared bearer token or,
 * with an issuer, an access token of a signed-in person (whose sessions are theirs alone).
 * Resource changes travel on `changes` (by default this process's own bus).
 */
export async function startHttpServer(
  ctx: ContextSource,
  options: HttpOptions,
  log: (line: string) => void,
  changes?: ResourceChanges,
): Promise<RunningHttpServer> {
  const token = options.oauth === null ? (options.token ?? newLocalSecret()) : null;
  // One discovery of the issuer for the MCP endpoint's tokens and the confirmation page's sign-in.
  const issuerKeys = options.oauth === null ? null : new IssuerKeys(options.oauth.issuer, log);
  const authorizer = options.oauth === null ? sharedTokenAuthorizer(token as string) : oauthAuthorizer(options.oauth, log, issuerKeys ?? undefined);
  // Built before listening: an unreadable client secret stops the start. The issuer redirects to the public URL's origin.
  const signIn = pageSignInOf(options.oauth, issuerKeys, options.oauth === null ? "" : new URL(options.oauth.resource).origin);
  // A person's sessions and their listen streams are counted apart, each up to the same share.
  const sessionShare = new PersonShare(perPersonShare(options.maxSessions));
  const ownChanges = changes === undefined ? inProcessChanges(ctx, { log }) : null;
  const resourceChanges = changes ?? (ownChanges as ResourceChanges);
  const sessions = new SessionTable<Session>({ max: options.maxSessions, idleMs: options.sessionIdleSeconds * 1000 }, (session) => {
    log(`closing an MCP session idle for ${options.sessionIdleSeconds} s`);
    void session.transport.close();
  });
  const work = new WorkInFlight();
  const modern = modernEndpoint(ctx, work, log, { changes: resourceChanges, maxListens: options.maxSessions });
  const listens = new ListenStreams(new PersonShare(sessionShare.share), resourceChanges, ctx.policy);
  /** The 2026-07-28 exchanges under way, until their answer is written (they have no session to count them). */
  const exchanges = new WorkInFlight();
  let stopping = false;
  let port = options.port;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path.startsWith(CONFIRM_PATH)) return serveConfirmRoute(req, res, await deferredContext(ctx).load(), port, options.publicOrigin);
    const refusal = requestOriginRefusal(req, port, options.publicOrigin);
    if (refusal) return replyError(res, 403, `Forbidden: ${refusal.message}`);
    const document = authorizer.publicDocument(path);
    if (document !== null) {
      if (req.method !== "GET") return replyError(res, 405, "Method not allowed: GET only", { headers: { Allow: "GET" } });
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "max-age=300" });
      return void res.end(JSON.stringify(document));
    }
    if (path !== MCP_PATH) return replyError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const access = await authorizer.authenticate(req);
    if ("refused" in access) return replyRefusal(res, access);
    // Someone the policy gives nothing is answered nothing: no session, no place held, no line written.
    const noRole = access.person === null ? null : grantFor(ctx.policy, access.person).refusal;
    if (noRole !== null) return replyError(res, 403, `Forbidden: ${noRole}`);
    if (!ENDPOINT_METHODS.includes(req.method ?? "")) {
      req.resume();
      return replyError(res, 405, `Method not allowed: ${MCP_PATH} takes ${ENDPOINT_METHODS.join(", ")}`, { headers: { Allow: ENDPOINT_METHODS.join(", ") } });
    }
    let body: unknown;
    if (req.method === "POST") {
      // The media type first, as the SDK's transports check it: a body that is not JSON by its own account is not parsed.
      if (!isJsonContentType(req.headers["content-type"] ?? null)) {
        req.resume();
        return replyError(res, 415, "Unsupported Media Type: Content-Type must be application/json");
      }
      let text: string;
      try {
        text = await readBodyText(req);
      } catch (error) {
        if (error instanceof RequestTooLarge) return replyError(res, 413, `Payload too large: ${error.message}`, { headers: { Connection: "close" } });
        return replyError(res, 400, `Bad request: ${errorMessage(error)}`);
      }
      // Read as stdio reads a line (not JSON, a key named twice, an id a number cannot carry): refused alike.
      const read = readClientMessage(text);
      if ("refused" in read) {
        const refusal = messageRefusal(read.refused);
        return replyError(res, 400, refusal.message, { code: refusal.code, id: refusal.id });
      }
      body = read.message;
    }
    // From here each error answer to a request echoes its id.
    const id = echoableId(body);
    const scopeRefusal = await authorizer.authorizeBody(access, body);
    if (scopeRefusal !== null) {
      await auditRefusal(scopeRefusal, access);
      return replyRefusal(res, scopeRefusal, body);
    }
    const sessionId = req.headers["mcp-session-id"];
    // 2026-07-28: no session; each request carries its version and the client's capabilities in _meta. One that names
    // the revision there is served as such whatever Mcp-Session-Id it carries (a header that revision does not know).
    if (req.method === "POST") {
      const request = webRequestOf(req, res);
      if (typeof sessionId === "string" ? carriesModernClaim(request, body) : await modern.claims(request, body)) {
        if (stopping) return replyError(res, 503, SHUTTING_DOWN, { id });
        const answer = async () => writeWebResponse(await modern.answer(request, body, access), res);
        // A shutdown waits until each answer is written; a subscription's stream is not an answer it waits for.
        if (!isListen(body)) return exchanges.run(answer);
        const admitted = listens.admit(access, body);
        if ("refused" in admitted) return replyError(res, admitted.refused.status, admitted.refused.message, { code: admitted.refused.code, id });
        res.once("close", admitted.release);
        endStreamAtExpiry(res, access);
        // The stream opens once its resources' first readings were tried: a change after its acknowledgement is notified.
        await admitted.ready;
        return answer();
      }
    }
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      // An ended or expired session, or another person's: the client must initialize a new one (MCP's rule for 404), and learns nothing of it.
      if (session && session.subject !== access.subject)
        log(
          `refused a request of subject ${JSON.stringify(access.subject)} on a session of subject ` +
            `${JSON.stringify(session.subject)} (answered as an unknown session)`,
        );
      if (!session || session.subject !== access.subject) return replyError(res, 404, "Session not found: initialize a new session", { id });
      // The session's tools, operator and limits follow the role its person had: a token whose groups or roles changed starts again.
      if (!sameMemberships(session.person, access.person)) {
        await session.transport.close();
        return replyError(res, 404, "Session not found: your token's groups or roles changed since this session began; initialize a new session", { id });
      }
      res.once("close", sessions.use(sessionId));
      if (req.method === "GET") endStreamAtExpiry(res, access);
      // While stopping, a session's answers (a confirmation form) still come in; its new requests are refused.
      return exchange(session.http, req, res, body, access);
    }
    if (stopping) return replyError(res, 503, SHUTTING_DOWN, { id });
    if (isModernSessionOperation(req))
      return replyError(res, 405, `Method not allowed: ${MODERN_REVISION} has no sessions, so no GET or DELETE; POST each request`, {
        headers: { Allow: "POST" },
      });
    if (req.method !== "POST" || !isInitialize(body)) return replyError(res, 400, "Bad request: no mcp-session-id; send initialize first", { id });
    // Held from the initialize until the session closes, or its opening fails.
    const giveBackShare = sessionShare.take(access.person === null ? null : access.subject);
    if (giveBackShare === null) return replyError(res, 429, tooManyOfYours(sessionShare.share), { id });
    if (!sessions.reserve()) {
      giveBackShare();
      return replyError(res, 503, tooManySessions(options), { id });
    }
    return openSession(req, res, body, access, giveBackShare);
  };

  /** A write refused for its scope is on the audit chain like any refused write: who tried what. */
  const auditRefusal = async (refusal: Refusal, access: Access): Promise<void> => {
    if (refusal.tools === undefined) return;
    try {
      const road = (await deferredContext(ctx).load()).forPerson(access.person).road;
      // One line per refused request, whatever a batch holds.
      await road.recordOperation({
        event: "refused",
        tool: refusal.tools[0] ?? "tools/call",
        request: null,
        error: refusal.message,
        details: { reason: "insufficient_scope", tools: refusal.tools },
        person: access.person,
      });
    } catch (error) {
      log(`could not audit a refused write (${errorMessage(error)}); it was refused all the same`);
    }
  };

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown, access: Access, giveBackShare: () => void): Promise<void> => {
    let reserved = true;
    const giveBack = () => {
      if (reserved) sessions.release();
      reserved = false;
    };
    const streamable = new WebStandardStreamableHTTPServerTransport({
      // Behind a load balancer the id names this replica, so every later request of the session is routed here.
      sessionIdGenerator: () => (options.replicaId === null ? randomUUID() : `${options.replicaId}.${randomUUID()}`),
      onsessioninitialized: (id) => {
        giveBack();
        sessions.add(id, session);
        res.once("close", sessions.use(id));
      },
    });
    const transport = new DrainingTransport(streamable);
    const session: Session = { http: streamable, transport, subject: access.subject, person: access.person };
    const server = createMcpServer(ctx, { work, person: access.person, changes: resourceChanges });
    // Whatever closes it (DELETE, expiry, shutdown), the session's transport and server are let go.
    transport.onclose = () => {
      if (streamable.sessionId) sessions.delete(streamable.sessionId);
      giveBackShare();
      void server.close();
    };
    try {
      await server.connect(transport);
      await exchange(streamable, req, res, body, access);
    } finally {
      if (reserved) {
        giveBack();
        giveBackShare();
        await transport.close();
      }
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`http: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) replyError(res, 500, "Internal error");
      else res.end();
    });
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve(http.address() as AddressInfo));
  });
  port = address.port;
  const host = options.host === "::1" ? "[::1]" : options.host;
  const origin = options.publicOrigin ?? `http://${host}:${port}`;
  deferredContext(ctx).pages.serveAt(origin, signIn);
  const close = async () => {
    for (const session of sessions.values()) await session.transport.close();
    await modern.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await ownChanges?.close();
  };
  const pending = () => Math.max(work.pending, exchanges.pending + sessions.values().reduce((sum, session) => sum + session.transport.pending, 0));
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    port,
    token,
    get pending() {
      return pending();
    },
    get sessions() {
      return sessions.size;
    },
    shutdown: async (graceMs) => {
      stopping = true;
      // Listen streams end at once, with their empty result: their clients listen again on another replica.
      await modern.endListens();
      work.stopAccepting();
      for (const session of sessions.values()) session.transport.stopAccepting();
      await settle([work, exchanges, ...sessions.values().map((session) => session.transport)], graceMs);
      const left = pending();
      await close();
      return left;
    },
    close,
  };
}
