import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface AlternatingProxy {
  /** http://127.0.0.1:<port>, the origin people reach. */
  origin: string;
  port: number;
  /** Which upstream (its index) answered each request, in order, with the request's path. */
  readonly answered: readonly { upstream: number; path: string }[];
  close(): Promise<void>;
}

/**
 * A load balancer that sends each request to the next upstream in turn, the Host header kept as
 * the client sent it: two requests in a row never reach the same replica.
 */
export async function startAlternatingProxy(upstreamPorts: readonly number[], port = 0): Promise<AlternatingProxy> {
  let next = 0;
  const answered: { upstream: number; path: string }[] = [];
  const server = createServer((req, res) => {
    // A browser's own request for an icon would shift the turns: answered here.
    if (req.url === "/favicon.ico") return void res.writeHead(404).end();
    const upstream = next;
    next = (next + 1) % upstreamPorts.length;
    answered.push({ upstream, path: new URL(req.url ?? "/", "http://localhost").pathname });
    const forwarded = request({ host: "127.0.0.1", port: upstreamPorts[upstream], path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server.address() as AddressInfo));
  });
  return {
    origin: `http://127.0.0.1:${address.port}`,
    port: address.port,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
