import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import { TransportWrapper } from "./transport-wrapper.js";
import type { Drainable } from "./drainable.js";
import { IdleWaiters } from "./idle-waiters.js";
import { answeredId, isNotification, isRequest } from "./message-kinds.js";
import { SHUTTING_DOWN } from "./work-in-flight.js";

/** JSON-RPC code of a connection that is closing (the SDK's v1 ErrorCode.ConnectionClosed; v2 keeps it local, as a string). */
const CONNECTION_CLOSED = -32000;

const NO_ANSWER_CAN_COME = "the client closed its input: no answer can come";

/**
 * Wraps a transport to know which of the client's requests are still unanswered, so a shutdown
 * can refuse new requests and wait until the answers of those under way are written. Once the
 * client's input has ended, a question the server asks the client (a confirmation form) can get no
 * answer: it fails at once, instead of holding its tool call until its timeout.
 */
export class DrainingTransport extends TransportWrapper implements Drainable {
  /** Resolves when the wrapped transport has closed, whoever set onclose since. */
  readonly closed: Promise<void>;
  #markClosed: () => void = () => {};
  /** The client's requests not answered yet. */
  readonly #unanswered = new Set<RequestId>();
  /** The server's requests to the client not answered yet. */
  readonly #asked = new Set<RequestId>();
  readonly #idle = new IdleWaiters();
  #accepting = true;
  #inputEnded = false;

  constructor(inner: Transport) {
    super(inner);
    this.closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  protected innerClosed(): void {
    this.#markClosed();
  }

  get pending(): number {
    return this.#unanswered.size;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isRequest(message)) {
      if (this.#inputEnded) {
        queueMicrotask(() => this.#failQuestion(message.id));
        return;
      }
      this.#asked.add(message.id);
    }
    const id = answeredId(message);
    try {
      await this.inner.send(message, options);
    } finally {
      if (id !== undefined) this.#answered(id);
    }
  }

  /** Refuses the client's new requests from now on; answers, notifications and cancellations still pass. */
  stopAccepting(): void {
    this.#accepting = false;
  }

  /** The client will send nothing more (stdin ended): no new request, and no answer to the server's questions. */
  endOfInput(): void {
    this.#inputEnded = true;
    this.#accepting = false;
    for (const id of [...this.#asked]) this.#failQuestion(id);
  }

  idle(): Promise<void> {
    return this.#idle.wait(this.#unanswered.size);
  }

  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequest(message)) {
      if (!this.#accepting) {
        this.inner
          .send({ jsonrpc: "2.0", id: message.id, error: { code: CONNECTION_CLOSED, message: SHUTTING_DOWN } })
          .catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      // A listen stream is not an answer a shutdown waits for: it ends, with its empty result, when the connection closes.
      if (message.method !== "subscriptions/listen") this.#unanswered.add(message.id);
    } else if (isNotification(message)) {
      // The SDK writes no answer to a cancelled request; its tool call, if any, is still awaited by WorkInFlight.
      const id = message.method === "notifications/cancelled" ? (message.params as { requestId?: RequestId } | undefined)?.requestId : undefined;
      if (id !== undefined) this.#answered(id);
    } else {
      const id = answeredId(message);
      if (id !== undefined) this.#asked.delete(id);
    }
    this.deliver(message, extra);
  }

  #answered(id: RequestId): void {
    this.#unanswered.delete(id);
    this.#idle.update(this.#unanswered.size);
  }

  #failQuestion(id: RequestId): void {
    this.#asked.delete(id);
    this.onmessage?.({ jsonrpc: "2.0", id, error: { code: CONNECTION_CLOSED, message: NO_ANSWER_CAN_COME } });
  }
}
