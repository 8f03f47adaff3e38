import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { ServerOptions } from "node:https";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { stringifyJsonExact } from "../../src/json/exact-json.js";

// Servers for the client's own node:http path that behave as the scripted server cannot: a body
// that trickles in or never ends, compressed answers, connections counted and closed under the client.

export type Handler = (req: IncomingMessage, res: ServerResponse, connection: number) => void;

export interface Served {
  baseUrl: string;
  /** The connections accepted, in order. */
  sockets: Socket[];
  /** Requests received, "METHOD path #connection". */
  requests: string[];
  /** Resolves when the connection closes (from either side). */
  closed(index: number): Promise<void>;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
});

/** A server on loopback (closed after each test) that reads each request whole, then hands it to `handle`. */
export async function serve(handle: Handler, options: { host?: string; keepAliveTimeout?: number; tls?: ServerOptions } = {}): Promise<Served> {
  const { host = "127.0.0.1", keepAliveTimeout = 5_000, tls } = options;
  const sockets: Socket[] = [];
  const requests: string[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const connection = sockets.indexOf(req.socket);
    requests.push(`${req.method} ${req.url} #${connection}`);
    // The request's body is read whole before the answer, as a service does.
    req.resume();
    req.on("end", () => handle(req, res, connection));
  };
  const server = tls === undefined ? createServer(onRequest) : createHttpsServer(tls, onRequest);
  server.keepAliveTimeout = keepAliveTimeout;
  server.on(tls === undefined ? "connection" : "secureConnection", (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return {
    baseUrl: `${tls === undefined ? "http" : "https"}://${hostPart}:${port}/module`,
    sockets,
    requests,
    closed: (index) => new Promise((resolve) => (sockets[index]?.closed ? resolve() : sockets[index]?.once("close", () => resolve()))),
  };
}

/** A self-signed certificate for 127.0.0.1, valid a day: no client trusts it unless told to. */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), "custody-tls-"));
  try {
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    const subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1"];
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", ...subject, "-keyout", key, "-out", cert], {
      stdio: "ignore",
    });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true });
  }
}

/** Runs `call` with every certificate trusted (Node reads the setting at each connection). */
export async function trustingAnyCertificate<T>(call: () => Promise<T>): Promise<T> {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    return await call();
  } finally {
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  }
}

export const answerJson = (res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(stringifyJsonExact(body));
