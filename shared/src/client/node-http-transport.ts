import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from "node:http";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import type { Answer, Exchange, Transport } from "./attempt.js";
import { ACCEPTED_ENCODINGS } from "./content-decoding.js";
import { readAnswer } from "./node-http-answer.js";

/** Connections one client keeps to its module at most: enough for its parallel reads (a walk reads two pages at a time). */
const MAX_SOCKETS = 16;
/**
 * An idle connection is closed after this, before the server's own keep-alive timeout (5 s for
 * Node and many gateways) closes it under a request; a server's `Keep-Alive: timeout=N` shortens it.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * Requests through node:http or node:https (by the base URL's scheme). GETs share one client's
 * keep-alive connections; a POST goes on a connection of its own, closed after its answer: a
 * reused connection the server closes as idle just as a request goes out fails that request with
 * no answer, which for a write would be an outcome unknown though the server never read it (see
 * docs/spec-decisions.md). Redirects are never followed (node:http does not). Answers are asked
 * for compressed and decoded (node-http-answer.ts).
 */
export function nodeHttpTransport(baseUrl: URL): Transport {
  const secure = baseUrl.protocol === "https:";
  const Agent = secure ? HttpsAgent : HttpAgent;
  const reads = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS, scheduling: "lifo" });
  const writes = new Agent({ keepAlive: false });
  const send = secure ? httpsRequest : httpRequest;
  // The request's bytes can leave only once its connection is open: over TLS, once the handshake
  // is done and the service's certificate accepted (Node holds what was written until then).
  const opened = secure ? "secureConnect" : "connect";
  const base: RequestOptions = {
    // A URL's hostname keeps an IPv6 literal's brackets; a request's does not take them.
    hostname: baseUrl.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: baseUrl.port === "" ? undefined : Number(baseUrl.port),
  };
  const basePath = baseUrl.pathname.replace(/\/+$/, "");
  return (request, maxBytes): Exchange => {
    const headers: OutgoingHttpHeaders = { ...request.headers, "Accept-Encoding": ACCEPTED_ENCODINGS };
    if (request.body !== undefined) headers["Content-Length"] = Buffer.byteLength(request.body);
    let req: ClientRequest | undefined;
    let connectionOpened = false;
    let settled = false;
    let fail: (error: unknown) => void = () => {};
    const answer = new Promise<Answer>((resolve, reject) => {
      const finish = (value: Answer) => {
        if (settled) return;
        settled = true;
        resolve(value);
      };
      fail = (error) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      const options = { ...base, method: request.method, path: basePath + request.path, headers, agent: request.method === "POST" ? writes : reads };
      req = send(options, (res: IncomingMessage) => readAnswer(res, maxBytes, finish, fail));
      req.on("socket", (socket: Socket) => {
        // A new connection is still connecting when handed to the request; a kept-alive one was opened long ago.
        if (socket.connecting) socket.once(opened, () => (connectionOpened = true));
        else connectionOpened = true;
      });
      // Kept for the request's whole life: an error after the answer settled must not go unheard.
      req.on("error", fail);
      req.end(request.body);
    });
    return {
      answer,
      abort: () => {
        fail(new Error("stopped"));
        req?.destroy();
      },
      sentNothing: () => !connectionOpened,
    };
  };
}
