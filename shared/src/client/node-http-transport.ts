import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from "node:http";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Answer, Exchange, ResponseHeaders, Transport } from "./attempt.js";
import { BoundedChunks, declaresMoreThan } from "./bounded-body.js";

/** Connections one client keeps to its module at most: enough for its parallel reads (a walk reads two pages at a time). */
const MAX_SOCKETS = 16;
/**
 * An idle connection is closed after this, before the server's own keep-alive timeout (5 s for
 * Node and many gateways) closes it under a request; a server's `Keep-Alive: timeout=N` shortens it.
 */
const IDLE_SOCKET_MS = 4_000;

function headerReader(headers: IncomingHttpHeaders): ResponseHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** The connection closed before the whole answer arrived (a cut body). */
function cutOff(): Error {
  return Object.assign(new Error("the connection closed before the whole answer arrived"), { code: "ECONNRESET" });
}

/**
 * Requests through node:http or node:https (by the base URL's scheme). GETs share one client's
 * keep-alive connections; a POST goes on a connection of its own, closed after its answer: a
 * reused connection the server closes as idle just as a request goes out fails that request with
 * no answer, which for a write would be an outcome unknown though the server never read it (see
 * docs/spec-decisions.md). Redirects are never followed (node:http does not).
 */
export function nodeHttpTransport(baseUrl: URL): Transport {
  const secure = baseUrl.protocol === "https:";
  const Agent = secure ? HttpsAgent : HttpAgent;
  const reads = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS, scheduling: "lifo" });
  const writes = new Agent({ keepAlive: false });
  const send = secure ? httpsRequest : httpRequest;
  const base: RequestOptions = {
    // A URL's hostname keeps an IPv6 literal's brackets; a request's does not take them.
    hostname: baseUrl.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: baseUrl.port === "" ? undefined : Number(baseUrl.port),
  };
  const basePath = baseUrl.pathname.replace(/\/+$/, "");
  return (request, maxBytes): Exchange => {
    const headers: OutgoingHttpHeaders = { ...request.headers };
    if (request.body !== undefined) headers["Content-Length"] = Buffer.byteLength(request.body);
    let req: ClientRequest | undefined;
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
      req = send(options, (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const read = headerReader(res.headers);
        const refuse = () => {
          res.destroy();
          finish({ status, headers: read, body: null });
        };
        if (declaresMoreThan(res.headers["content-length"], maxBytes)) {
          refuse();
          return;
        }
        const chunks = new BoundedChunks(maxBytes);
        res.on("data", (chunk: Buffer) => {
          if (!chunks.add(chunk)) refuse();
        });
        res.on("end", () => finish({ status, headers: read, body: chunks.bytes() }));
        res.on("error", fail);
        // Node reports a cut body as an error; a close without one must not leave the call to its timeout.
        res.on("close", () => fail(cutOff()));
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
    };
  };
}
