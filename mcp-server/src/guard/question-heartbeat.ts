import type { ToolCall } from "../server/tool-call.js";

/** How often a call under way tells the client it is still working (when it asked for progress). */
export const PROGRESS_EVERY_MS = 2000;

/** The heartbeat of each 2025-11-25 question under way, by the call's signal: the SDK's shim keeps it across the handler's two entries. */
const BEATING = new WeakMap<AbortSignal, () => void>();

/**
 * While a 2025-11-25 person reads the form, the SDK's shim holds the tools/call open outside the
 * handler: progress keeps a client that asked for it from timing the call out meanwhile. It stops
 * when the handler is entered again with the answer, when the call is cancelled, or at `untilMs`
 * (the question's expiry) when no answer came back.
 */
export function beatWhileAsked(call: ToolCall, untilMs: number): void {
  const timer = setInterval(() => call.progress("waiting for the person's confirmation"), PROGRESS_EVERY_MS);
  const limit = setTimeout(() => stop(), Math.max(0, untilMs));
  const stop = () => {
    clearInterval(timer);
    clearTimeout(limit);
    call.signal.removeEventListener("abort", stop);
    BEATING.delete(call.signal);
  };
  timer.unref();
  limit.unref();
  call.signal.addEventListener("abort", stop, { once: true });
  BEATING.set(call.signal, stop);
}

/** Stops the heartbeat of the question this call answers, if one is beating. */
export function stopBeating(call: ToolCall): void {
  BEATING.get(call.signal)?.();
}
