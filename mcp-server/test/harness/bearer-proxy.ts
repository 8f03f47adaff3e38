import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface BearerProxy {
  /** The proxy's own base, http://127.0.0.1:<port>. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * A loopback forwarding proxy that adds `Authorization: Bearer <token>` to every request, for a
 * client that cannot send headers of its own (the conformance runner). It never weakens the
 * server: Host and Origin are forwarded as they came, so a foreign Host or Origin reaches the
 * server's own DNS-rebinding check. The one rewrite is the port of the proxy's own authority
 * (127.0.0.1:<proxy port> becomes 127.0.0.1:<server port>, same for localhost and [::1]), as any
 * port forward does: without it the server would see a request for another port than its own.
 */
export async function startBearerProxy(target: { port: number; token: string }): Promise<BearerProxy> {
  let ownPort = 0;
  const forwardAuthority = (authority: string): string => {
    for (const name of LOOPBACK_NAMES) if (authority.toLowerCase() === `${name}:${ownPort}`) return `${name}:${target.port}`;
    return authority;
  };
  const forwardHeaders = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    const forwarded: IncomingHttpHeaders = { ...headers, authorization: `Bearer ${target.token}` };
    if (headers.host !== undefined) forwarded.host = forwardAuthority(headers.host);
    if (headers.origin?.startsWith("http://")) forwarded.origin = `http://${forwardAuthority(headers.origin.slice("http://".length))}`;
    return forwarded;
  };
  const proxy = createServer((req, res) => {
    const upstream = request({ host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers: forwardHeaders(req.headers) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`bearer proxy: ${error.message}`);
    });
    // A client that goes away (an SSE stream closed) closes the upstream request too.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  ownPort = await new Promise<number>((resolve, reject) => {
    proxy.once("error", reject);
    proxy.listen(0, "127.0.0.1", () => resolve((proxy.address() as AddressInfo).port));
  });
  return {
    origin: `http://127.0.0.1:${ownPort}`,
    port: ownPort,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}
