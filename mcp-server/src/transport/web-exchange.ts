import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The Web Request the SDK's Streamable HTTP transport reads for a Node request whose body has
 * been read already (request-body.ts bounds it): method, URL and headers, no body, and a signal
 * that aborts when the client goes away.
 */
export function webRequestOf(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const aborted = new AbortController();
  res.once("close", () => aborted.abort());
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), { method: req.method ?? "GET", headers, signal: aborted.signal });
}

/**
 * Writes a Web Response to a Node response: status and headers at once (an SSE stream's client
 * learns it is open before the first event), then the body as it comes, respecting backpressure.
 * When the client goes away the body is cancelled, which ends the SDK's stream for it.
 */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
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
