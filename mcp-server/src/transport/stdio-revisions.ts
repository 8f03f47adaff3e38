import { PROTOCOL_VERSION_META_KEY, UnsupportedProtocolVersionError, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/server";
import { isModernRevision, MODERN_REVISION } from "../server/protocol-era.js";
import { isRequest } from "../shutdown/message-kinds.js";
import { TransportWrapper } from "../shutdown/transport-wrapper.js";

/** The revision a request's _meta claims, when it claims one by name. */
function claimedRevision(params: unknown): string | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  const claimed = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof claimed === "string" ? claimed : undefined;
}

/**
 * On a connection opened in 2026-07-28, every later request that names in its _meta a revision
 * this server does not serve is answered with the revision's UnsupportedProtocolVersionError
 * (-32022, the versions served and the one asked), as the HTTP endpoint answers it: the SDK's
 * stdio entry checks the claim of the message that opens the connection only, then serves
 * whatever its later requests claim. A connection opened by `initialize` without that revision's
 * claim is a 2025-11-25 session, which knows no such claim: the SDK serves it as it is.
 */
export class StdioRevisions extends TransportWrapper {
  #legacy: boolean | undefined;

  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!isRequest(message)) return this.deliver(message, extra);
    const requested = claimedRevision(message.params);
    this.#legacy ??= message.method === "initialize" && !isModernRevision(requested);
    if (this.#legacy || requested === undefined || requested === MODERN_REVISION) return this.deliver(message, extra);
    const error = new UnsupportedProtocolVersionError({ supported: [MODERN_REVISION], requested });
    this.inner
      .send({ jsonrpc: "2.0", id: message.id, error: { code: error.code, message: error.message, data: error.data } })
      .catch((failure: unknown) => this.onerror?.(failure as Error));
  }

  protected innerClosed(): void {}
}
