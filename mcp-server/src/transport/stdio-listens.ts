import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import type { ReadableResources } from "../resources/register-resources.js";
import { answeredId, isNotification, isRequest } from "../shutdown/message-kinds.js";
import { TransportWrapper } from "../shutdown/transport-wrapper.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import { watchListened } from "./listen-streams.js";

/** JSON-RPC's invalid-params code: a listen request outside the limits. */
const INVALID_PARAMS = -32602;

/**
 * A stdio connection's subscriptions/listen streams are the SDK entry's (serveStdio); this wrapper
 * of its transport sees them go by, to keep the accounts and transactions each names watched while
 * it is open (until the client cancels it or the connection ends), and refuses one beyond the
 * limits as the HTTP endpoint does, before the entry sees it.
 */
export class StdioListens extends TransportWrapper {
  /** Each open stream's release, by its listen request's id. */
  readonly #streams = new Map<RequestId, () => void>();
  /** Messages held, in order, behind a listen request whose resources' first readings are under way. */
  #held: Promise<void> = Promise.resolve();
  #holding = 0;

  constructor(
    inner: Transport,
    private readonly changes: ResourceChanges,
    private readonly readable: ReadableResources,
  ) {
    super(inner);
  }

  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequest(message) && message.method === "subscriptions/listen" && !this.#streams.has(message.id)) {
      const watched = watchListened(message, this.changes, this.readable);
      if ("refused" in watched) {
        this.inner
          .send({ jsonrpc: "2.0", id: message.id, error: { code: INVALID_PARAMS, message: watched.refused.message } })
          .catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      this.#streams.set(message.id, watched.release);
      // The entry acknowledges the stream once its resources' first readings were tried: a change after the acknowledgement is notified.
      return this.#inOrder(message, extra, watched.ready);
    }
    if (isNotification(message) && message.method === "notifications/cancelled")
      this.#release((message.params as { requestId?: RequestId } | undefined)?.requestId);
    this.#inOrder(message, extra);
  }

  protected innerClosed(): void {
    for (const id of [...this.#streams.keys()]) this.#release(id);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The stream's empty result (the server ending it) ends its watch too.
    this.#release(answeredId(message));
    return this.inner.send(message, options);
  }

  /** Hands a message to the entry, after those held before it (and once `ready` settles). */
  #inOrder(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, ready?: Promise<void>): void {
    if (this.#holding === 0 && ready === undefined) return this.deliver(message, extra);
    this.#holding += 1;
    this.#held = this.#held
      .then(() => ready)
      .then(() => {
        this.#holding -= 1;
        this.deliver(message, extra);
      })
      .catch((error: unknown) => this.onerror?.(error as Error));
  }

  #release(id: RequestId | undefined): void {
    if (id === undefined) return;
    this.#streams.get(id)?.();
    this.#streams.delete(id);
  }
}
