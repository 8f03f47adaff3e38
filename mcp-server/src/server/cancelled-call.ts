import { setMaxListeners } from "node:events";

/** A call reads many things at once (get_holdings: a hundred accounts), each request listening for its abort until it ends. */
const CALL_SIGNAL_LISTENERS = 1000;

/**
 * A tool call's signal: aborted when the SDK's is (the client cancelled the call, or its connection
 * closed), with the plain AbortError, told as "the call was cancelled before it completed". The
 * reason a client gives with `notifications/cancelled` is its own text: taken as the error, it
 * became the answer's and the audit record's account of what happened ("HTTP 403 from the custody service: …").
 */
export function cancelledCallSignal(sdkSignal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  // Node warns of a leak past 10 listeners; a call's signal lives as long as the call, its listeners removed as its requests end.
  setMaxListeners(CALL_SIGNAL_LISTENERS, controller.signal);
  const cancel = () => controller.abort();
  if (sdkSignal.aborted) cancel();
  else sdkSignal.addEventListener("abort", cancel, { once: true });
  return controller.signal;
}
