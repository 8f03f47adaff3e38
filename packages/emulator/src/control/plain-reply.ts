import { stringifyJsonExact } from "@custody/shared";
import type { Reply } from "../http/reply.js";

/** A control-plane answer whose shape is the emulator's own (documented in the README). */
export function plainReply(value: unknown, status = 200): Reply {
  return { status, body: stringifyJsonExact(value) };
}
