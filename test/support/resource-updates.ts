import type { Client } from "@modelcontextprotocol/client";

export interface ResourceUpdates {
  /** The URIs of the notifications/resources/updated received so far, in order. */
  uris: string[];
  /** Resolves at the next notification for `uri` after the call; fails after `timeoutMs` naming what came instead. */
  next(uri: string, timeoutMs?: number): Promise<void>;
}

/** Records the notifications/resources/updated a client receives (a 2025 session's, or a 2026-07-28 listen stream's). */
export function resourceUpdatesOf(client: Client): ResourceUpdates {
  const uris: string[] = [];
  const waiters = new Set<() => void>();
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    uris.push(notification.params.uri);
    for (const waiter of [...waiters]) waiter();
  });
  const countOf = (uri: string) => uris.filter((one) => one === uri).length;
  return {
    uris,
    next: (uri, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const seen = countOf(uri);
        const check = () => {
          if (countOf(uri) <= seen) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no notifications/resources/updated for ${uri} within ${timeoutMs} ms; received ${JSON.stringify(uris)}`));
        }, timeoutMs);
        waiters.add(check);
      }),
  };
}
