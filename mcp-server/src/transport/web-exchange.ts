import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The Web Request the SDK's Streamable HTTP transport reads for a Node request whose body has
 * been read already (request-body.ts bounds it): method, URL and headers, no body, and a signal
 * that aborts when the client goes away before its answer is written. Once the answer is written
 * the exchange is over and nothing is left to abort (an abort then would only cost an
 * AbortError's stack trace on every request).
 */
export function webRequestOf(req: IncomingMessage, res: ServerResponse): Request {
  // Node joins a repeated header but set-cookie, which a request does not carry: joined here as Headers.get() would.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`).href, {
    method: req.method ?? "GET",
    headers,
    signal: aborted.signal,
  });
}

/** Whether a response's body is one JSON document (the SDK builds those whole), not a stream of events. */
function isJsonBody(response: Response): boolean {
  return /^application\/json\s*(;|$)/i.test(response.headers.get("content-type") ?? "");
}

/**
 * Writes a Web Response to a Node response. A JSON body, complete once the Response exists, goes
 * with its status and headers in one write (one packet; separate writes of headers, chunk and end
 * cost a system call each). A stream (SSE) gets its status and headers at once (its client learns
 * it is open before the first event), then its events as they come, respecting backpressure; when
 * the client goes away it is cancelled, which ends the SDK's stream for it.
 */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  if (response.body !== null && isJsonBody(response)) {
    const body = Buffer.from(await response.arrayBuffer());
    // Its length declared: writeHead would otherwise frame the body as chunks.
    res.writeHead(response.status, response.statusText, { ...headers, "content-length": String(body.byteLength) });
    return void res.end(body);
  }
  res.writeHead(response.status, response.statusText, headers);
  if (response.body === null) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value))
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.once("drain", go);
          res.once("close", go);
        });
      if (res.destroyed) break;
    }
  } catch {
    // The stream was cancelled (the client went away) or failed: nothing more can be written.
  } finally {
    res.off("close", cancel);
    if (!res.destroyed) res.end();
  }
}
