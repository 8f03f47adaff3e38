import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the proxy does with one request: pass it on, hold it then pass it on late (after a time, or
 * only when released), hold it then drop it unanswered, or answer it itself (as a service whose
 * error body is someone else's text).
 */
export type HoldRule =
  { kind: "pass" } | { kind: "late"; holdMs: number } | { kind: "until_released" } | { kind: "drop" } | { kind: "answer"; status: number; text: string };

export interface HoldingProxy {
  /** The emulator's base URL, through the proxy. */
  baseUrl: string;
  /** The rule for the next requests matching a method and a path prefix (below the base path), `times` of them (one unless given); others pass. */
  hold(method: string, pathPrefix: string, rule: HoldRule, times?: number): void;
  /** Resolves when a request matching the rule has arrived and is being held. */
  held(): Promise<void>;
  /** Ends the hold of every held request: a late one is forwarded now, a dropped one has its connection destroyed. */
  release(): void;
  /** Resolves when the next request matching a method and a path prefix that passes has had its answer from the emulator. */
  answered(method: string, pathPrefix: string): Promise<void>;
  /** The paths (below the base path, with their queries) of the requests it was asked, in order. */
  asked(): readonly string[];
  /** Resolves when every held request that was to be forwarded has had its answer from the emulator. */
  forwarded(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of the emulator that can hold a write: forwarded past the client's
 * timeout (an answer that comes too late, for a write that lands anyway), or never forwarded and
 * its connection cut (a write that never reached the service, while the client cannot know).
 */
export async function startHoldingProxy(target: { baseUrl: string }): Promise<HoldingProxy> {
  const upstream = new URL(target.baseUrl);
  const basePath = upstream.pathname.replace(/\/$/, "");
  let rule: { method: string; prefix: string; action: HoldRule; times: number } | null = null;
  const releases: (() => void)[] = [];
  const forwards: Promise<void>[] = [];
  const watchers: { method: string; prefix: string; answered: () => void }[] = [];
  const asked: string[] = [];
  let heldSignal: () => void = () => {};
  let heldPromise = new Promise<void>((resolve) => (heldSignal = resolve));

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const outgoing = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => {
            if (!res.destroyed) {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(chunks));
            }
            resolve();
          });
        },
      );
      outgoing.on("error", () => {
        if (!res.destroyed) res.destroy();
        resolve();
      });
      outgoing.end(body);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? "").slice(basePath.length);
      asked.push(path);
      const action = rule !== null && req.method === rule.method && path.startsWith(rule.prefix) ? rule.action : ({ kind: "pass" } as const);
      if (action.kind === "pass") {
        const watcher = watchers.findIndex((candidate) => candidate.method === req.method && path.startsWith(candidate.prefix));
        const answered = watcher === -1 ? () => {} : (watchers.splice(watcher, 1)[0]?.answered ?? (() => {}));
        void forward(req, body, res).then(answered);
        return;
      }
      if (rule !== null && (rule.times -= 1) <= 0) rule = null;
      if (action.kind === "answer") {
        res.writeHead(action.status, { "Content-Type": "text/plain" });
        res.end(action.text);
        return;
      }
      heldSignal();
      const done = new Promise<void>((resolve) => {
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          if (action.kind === "drop") {
            res.destroy();
            resolve();
          } else {
            void forward(req, body, res).then(resolve);
          }
        };
        releases.push(release);
        if (action.kind === "late") setTimeout(release, action.holdMs);
      });
      forwards.push(done);
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    hold(method, pathPrefix, action, times = 1) {
      rule = { method, prefix: pathPrefix, action, times };
      heldPromise = new Promise<void>((resolve) => (heldSignal = resolve));
    },
    held: () => heldPromise,
    asked: () => asked,
    answered: (method, prefix) => new Promise<void>((resolve) => watchers.push({ method, prefix, answered: resolve })),
    release() {
      for (const release of releases.splice(0)) release();
    },
    forwarded: async () => {
      await Promise.all(forwards);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of releases.splice(0)) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
