import type { IncomingMessage } from "node:http";
import { EMULATOR_KEY_HEADER, localOriginRefusal, sameSecret } from "@custody/shared";
import type { ResolvedOptions } from "../options.js";
import { HttpError } from "./http-error.js";
import { isLoopback } from "./loopback.js";

function boundToLoopback(host: string): boolean {
  return host === "localhost" || isLoopback(host);
}

/**
 * What every request passes before anything else, the control plane's included: a Host naming this
 * server (DNS rebinding), no foreign Origin (a web page in the user's browser), and the emulator's
 * key when it was started with one. Throws the refusal.
 */
export function checkFrontDoor(request: IncomingMessage, options: Pick<ResolvedOptions, "host" | "key">): void {
  // The socket's local port is the port this server listens on, whatever the options asked for.
  const refusal = localOriginRefusal(request, request.socket.localPort ?? 0, { addressHosts: !boundToLoopback(options.host) });
  if (refusal) throw new HttpError(403, refusal.header === "Host" ? "HostNotAllowed" : "OriginNotAllowed", refusal.message);
  if (options.key === null) return;
  const given = request.headers[EMULATOR_KEY_HEADER];
  if (given === undefined) throw new HttpError(401, "EmulatorKeyRequired", "this emulator was started with a key: send it in the X-Emulator-Key header");
  if (typeof given !== "string" || !sameSecret(given, options.key)) throw new HttpError(403, "EmulatorKeyWrong", "X-Emulator-Key: not this emulator's key");
}
