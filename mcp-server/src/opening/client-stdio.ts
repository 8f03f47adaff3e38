/** What the stdio server reads the client's messages from and writes its answers to. */
export interface ClientStdio {
  /** Ends when the client's input ends. */
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

interface HandedOver extends ClientStdio {
  /** Stops reading the client's input: the server will not start (its start failed), so nothing may keep the process waiting for it. */
  abandon(): void;
}

let handedOver: HandedOver | null = null;

/** The opening front (opening-front.ts) hands the client's streams over to the server it has loaded. */
export function handOverClientStdio(streams: HandedOver): void {
  handedOver = streams;
}

/** The streams the opening front handed over, or the process's own. */
export function clientStdio(): ClientStdio {
  return handedOver ?? { input: process.stdin, output: process.stdout };
}

/** A start that failed: the front stops holding the client's input open, so the process ends with the start's error. */
export function abandonClientStdio(): void {
  handedOver?.abandon();
}
