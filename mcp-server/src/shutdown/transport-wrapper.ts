import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";

/**
 * A transport handing everything on to the one it wraps, for a subclass to see the client's
 * messages go by (`receive`, which passes them on with `deliver`) and the wrapped one close.
 */
export abstract class TransportWrapper implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  setProtocolVersion?: (version: string) => void;
  setSupportedProtocolVersions?: (versions: string[]) => void;

  protected readonly inner: Transport;

  constructor(inner: Transport) {
    this.inner = inner;
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => {
      this.innerClosed();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    if (inner.setProtocolVersion) this.setProtocolVersion = (version) => inner.setProtocolVersion?.(version);
    if (inner.setSupportedProtocolVersions) this.setSupportedProtocolVersions = (versions) => inner.setSupportedProtocolVersions?.(versions);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** A message from the client; pass it on with deliver (or answer it in its place). */
  protected abstract receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void;

  /** The wrapped transport closed (before onclose is told). */
  protected abstract innerClosed(): void;

  protected deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }
}
