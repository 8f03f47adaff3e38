import { isIPv4, isIPv6 } from "node:net";

/** The header a request was refused for, and why. */
export interface LocalOriginRefusal {
  header: "Host" | "Origin";
  message: string;
}

export interface LocalOriginOptions {
  /**
   * Also accept a Host (and an Origin) naming an IP address with the server's port: a server bound
   * beyond loopback is reached by its address, and DNS rebinding always arrives under a DNS name.
   */
  addressHosts?: boolean;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

function isAddressHost(host: string): boolean {
  return host.startsWith("[") && host.endsWith("]") ? isIPv6(host.slice(1, -1)) : isIPv4(host);
}

/**
 * DNS-rebinding and cross-site protection for a server on loopback: the Host header must name a
 * loopback host with the server's port, and an Origin, when sent, must be a loopback origin on that
 * port (a web page the user opened elsewhere carries its own). Returns why a request is refused, or null.
 */
export function localOriginRefusal(
  request: { readonly headers: { readonly host?: string | undefined; readonly origin?: string | undefined } },
  port: number,
  options: LocalOriginOptions = {},
): LocalOriginRefusal | null {
  const suffix = `:${port}`;
  const accepted = (authority: string): boolean => {
    if (!authority.endsWith(suffix)) return false;
    const host = authority.slice(0, -suffix.length);
    return (LOOPBACK_NAMES as readonly string[]).includes(host) || (options.addressHosts === true && isAddressHost(host));
  };
  const expected = LOOPBACK_NAMES.map((name) => `${name}${suffix}`).join(", ");
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !accepted(host)) {
    return { header: "Host", message: `Host header ${JSON.stringify(host ?? "")} is not this loopback server (expected one of ${expected})` };
  }
  const origin = request.headers.origin?.toLowerCase();
  if (origin !== undefined && !(origin.startsWith("http://") && accepted(origin.slice("http://".length)))) {
    return {
      header: "Origin",
      message: `Origin ${JSON.stringify(origin)} is not a loopback origin of this server (only http:// with ${expected}, or no Origin)`,
    };
  }
  return null;
}
