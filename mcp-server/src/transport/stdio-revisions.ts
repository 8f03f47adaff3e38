import { PROTOCOL_VERSION_META_KEY, UnsupportedProtocolVersionError, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/server";
import { MODERN_REVISION } from "../server/protocol-era.js";
import { isRequest } from "../shutdown/message-kinds.js";
import { TransportWrapper } from "../shutdown/transport-wrapper.js";

/** The revision a request's _meta claims, when it claims one by name. */
function claimedRevision(params: unknown): string | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  const claimed = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof claimed === "string" ? claimed : undefined;
}

/**
 * Every stdio request that names in its _meta a revision this server does not serve is answered
 * with the revision's UnsupportedProtocolVersionError (-32022, the versions served and the one
 * asked), as the HTTP endpoint answers it. The SDK's stdio entry checks the claim of the message
 * that opens the connection only, then serves whatever its later requests claim.
 */
export class StdioRevisions extends TransportWrapper {
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const requested = isRequest(message) ? claimedRevision(message.params) : undefined;
    if (!isRequest(message) || requested === undefined || requested === MODERN_REVISION) return this.deliver(message, extra);
    const error = new UnsupportedProtocolVersionError({ supported: [MODERN_REVISION], requested });
    this.inner
      .send({ jsonrpc: "2.0", id: message.id, error: { code: error.code, message: error.message, data: error.data } })
      .catch((failure: unknown) => this.onerror?.(failure as Error));
  }

  protected innerClosed(): void {}
}
