import { localOriginRefusal, type LocalOriginRefusal } from "@custody/shared";
import { OPTIONS } from "../config/options.js";

type Headers = { readonly headers: { readonly host?: string | undefined; readonly origin?: string | undefined } };

/**
 * The loopback Host/Origin rule, widened by one origin when the server runs behind a load
 * balancer: a request whose Host is that origin's authority, and whose Origin (if sent) is that
 * origin, is what the balancer passes on from a client. Anything else is refused as before.
 */
export function requestOriginRefusal(request: Headers, port: number, publicOrigin: string | null): LocalOriginRefusal | null {
  const local = localOriginRefusal(request, port);
  if (local === null || publicOrigin === null) return local;
  const url = new URL(publicOrigin);
  const host = request.headers.host?.toLowerCase();
  const origin = request.headers.origin?.toLowerCase();
  if (host === url.host && (origin === undefined || origin === url.origin)) return null;
  return { ...local, message: `${local.message}, nor the public origin ${publicOrigin} (${OPTIONS.publicOrigin.env})` };
}
