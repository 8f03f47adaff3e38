import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stringifyJsonExact } from "../../src/json/exact-json.js";

/** A programmed answer of the test server. */
export type Scripted =
  /** A JSON body written with stringifyJsonExact (bigints become raw JSON integers). */
  | { kind: "json"; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: "text"; status: number; text: string; headers?: Record<string, string> }
  /** Destroys the socket once the whole request has been read: no status line is ever written. */
  | { kind: "drop" }
  /** Writes the status and half a body, then destroys the socket. */
  | { kind: "drop-mid-body"; status?: number }
  /** Waits, then answers `then` (if the client is still there). */
  | { kind: "delay"; ms: number; then: Scripted };

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Scripted => ({ kind: "json", status, body, headers });
export const text = (status: number, body: string, headers?: Record<string, string>): Scripted => ({ kind: "text", status, text: body, headers });

/**
 * A real HTTP server on 127.0.0.1 (port 0) that records every request and answers, per
 * "METHOD /path" (query excluded), the next programmed response. An unscripted request gets 404
 * and is listed in `unscripted`.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  readonly unscripted: string[] = [];
  readonly #scripts = new Map<string, Scripted[]>();
  readonly #arrivals = new Set<() => void>();
  readonly #server: Server;
  readonly #prefix: string;

  private constructor(server: Server, prefix: string) {
    this.#server = server;
    this.#prefix = prefix;
  }

  /** `prefix` plays the module's own path segment inside the base URL. */
  static async start(prefix = "/module"): Promise<ScriptedServer> {
    const server = createServer();
    const instance = new ScriptedServer(server, prefix);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => void instance.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return instance;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The base URL for the client: origin plus the module's path segment. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}${this.#prefix}`;
  }

  /** Queues answers for METHOD path (path relative to the prefix, without query). */
  on(method: string, path: string, ...answers: Scripted[]): this {
    const key = `${method} ${this.#prefix}${path}`;
    this.#scripts.set(key, [...(this.#scripts.get(key) ?? []), ...answers]);
    return this;
  }

  /** Requests received, paths relative to the prefix. */
  received(): { method: string; url: string }[] {
    return this.requests.map((request) => ({ method: request.method, url: request.url.slice(this.#prefix.length) }));
  }

  /** Resolves once `count` requests have arrived whole (a request the client sent is then known to have left it). */
  receivedCount(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.requests.length < count) return;
        this.#arrivals.delete(check);
        resolve();
      };
      this.#arrivals.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? "";
    this.requests.push({ method: req.method ?? "", url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    for (const arrival of this.#arrivals) arrival();
    const key = `${req.method} ${url.split("?")[0]}`;
    const next = this.#scripts.get(key)?.shift();
    if (next === undefined) {
      this.unscripted.push(key);
      res.writeHead(404, { "content-type": "text/plain" }).end(`unscripted ${key}`);
      return;
    }
    this.answer(req, res, next);
  }

  private answer(req: IncomingMessage, res: ServerResponse, scripted: Scripted): void {
    if (res.destroyed || req.socket.destroyed) return;
    switch (scripted.kind) {
      case "json":
        res.writeHead(scripted.status ?? 200, { "content-type": "application/json", ...scripted.headers }).end(stringifyJsonExact(scripted.body));
        return;
      case "text":
        res.writeHead(scripted.status, { "content-type": "text/plain", ...scripted.headers }).end(scripted.text);
        return;
      case "drop":
        req.socket.destroy();
        return;
      case "drop-mid-body":
        res.writeHead(scripted.status ?? 200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"id": 1, "amount": "12');
        setTimeout(() => req.socket.destroy(), 10);
        return;
      case "delay":
        setTimeout(() => this.answer(req, res, scripted.then), scripted.ms);
        return;
    }
  }
}
