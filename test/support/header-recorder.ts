import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface HeaderRecorder {
  /** The recorder's base URL: the target's, with the recorder's port (what the server under test is given). */
  baseUrl: string;
  /** Every request passed on, in order, with the headers it arrived with. */
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback forwarder in front of a service that records the headers of every request it passes
 * on: what a server under test really sends to the service. Host is rewritten to the target's (the
 * emulator serves only its own authority); everything else goes as it came.
 */
export async function startHeaderRecorder(targetBaseUrl: string): Promise<HeaderRecorder> {
  const target = new URL(targetBaseUrl);
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: { ...req.headers } });
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`header recorder: ${error.message}`);
    });
    req.pipe(upstream);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
