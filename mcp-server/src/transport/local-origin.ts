import type { IncomingMessage } from "node:http";

/**
 * DNS-rebinding protection for a server bound to loopback: the Host header must name a loopback
 * host with the server's port, and an Origin, when sent, must be a loopback origin on that port.
 * Returns why a request is refused, or null.
 */
export function localOriginRefusal(request: Pick<IncomingMessage, "headers">, port: number): string | null {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host)) return `Host header ${JSON.stringify(host ?? "")} is not this loopback server`;
  const origin = request.headers.origin?.toLowerCase();
  if (origin !== undefined && !(origin.startsWith("http://") && hosts.has(origin.slice("http://".length)))) {
    return `Origin ${JSON.stringify(origin)} is not a loopback origin of this server`;
  }
  return null;
}
