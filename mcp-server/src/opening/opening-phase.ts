import { createHash } from "node:crypto";
import { MODERN_REVISION } from "../server/protocol-era.js";

/** A line of the client's input, read as JSON-RPC. */
export interface ClientMessage {
  jsonrpc: "2.0";
  id?: string | number;
  method: string;
  params?: unknown;
}

/**
 * Where a stdio connection's opening stands, as the SDK's serveStdio decides it: nothing yet, a
 * 2025-11-25 session after its initialize (whose params the session keeps: the client's
 * capabilities change the tools listed), or 2026-07-28 (every request carries its envelope).
 */
export type OpeningPhase = { kind: "fresh" } | { kind: "legacy"; initialize: string } | { kind: "modern" };

/** What one message of the opening is to the cache. */
export type OpeningStep =
  /** A request whose answer depends on nothing but the configuration and this fingerprint. */
  | { kind: "answerable"; fingerprint: string; next: OpeningPhase }
  /** notifications/initialized: nothing to answer; the server must still see it. */
  | { kind: "notice" }
  /** Anything else: the opening is over, the server answers. */
  | { kind: "other" };

const VERSION_CLAIM = "io.modelcontextprotocol/protocolVersion";
const MODERN_ANSWERABLE = new Set(["server/discover", "tools/list", "ping"]);

/** The id a parsed line carries, as JSON (what the server's answer to it will carry), or null. */
export function idOf(message: unknown): string | null {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return null;
  const { id } = message as { id?: unknown };
  return id === undefined || id === null ? null : JSON.stringify(id);
}

/** A message read as the server reads it (wire/client-message.ts) as a request or notification: null for a response, a batch, or nothing read. */
export function clientMessage(read: unknown): ClientMessage | null {
  if (typeof read !== "object" || read === null || Array.isArray(read)) return null;
  return typeof (read as { method?: unknown }).method === "string" ? (read as ClientMessage) : null;
}

/** The revision a request's envelope claims, or null when it carries none. */
function claimedRevision(params: unknown): unknown {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  if (typeof meta !== "object" || meta === null) return null;
  return VERSION_CLAIM in meta ? (meta as Record<string, unknown>)[VERSION_CLAIM] : null;
}

function fingerprint(method: string, context: string, params: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([method, context, params ?? null]))
    .digest("hex");
}

/**
 * Classifies one message in the phase the opening is in. Answerable: a 2025 session's initialize
 * (without an envelope), then its tools/list and ping, keyed on the initialize's params too (the
 * client's capabilities); 2026-07-28's server/discover, tools/list and ping, each with its envelope
 * (which carries the client's capabilities), at any point before a 2025 initialize. The id is never
 * part of the fingerprint; everything else the request says is.
 */
export function openingStep(phase: OpeningPhase, message: ClientMessage): OpeningStep {
  try {
    return classified(phase, message);
  } catch {
    // JSON nested too deeply to serialise again (a RangeError): the server's to answer, as without the front.
    return { kind: "other" };
  }
}

function classified(phase: OpeningPhase, message: ClientMessage): OpeningStep {
  const { method, params } = message;
  if (message.id === undefined) return phase.kind === "legacy" && method === "notifications/initialized" ? { kind: "notice" } : { kind: "other" };
  const claim = claimedRevision(params);
  // 2026-07-28 needs no opening: a client may start with any request, each carrying its envelope.
  if (phase.kind !== "legacy" && claim === MODERN_REVISION && MODERN_ANSWERABLE.has(method))
    return { kind: "answerable", fingerprint: fingerprint(method, MODERN_REVISION, params), next: { kind: "modern" } };
  if (phase.kind === "fresh" && method === "initialize" && claim === null) {
    return { kind: "answerable", fingerprint: fingerprint(method, "", params), next: { kind: "legacy", initialize: JSON.stringify(params ?? null) } };
  }
  if (phase.kind === "legacy" && (method === "tools/list" || method === "ping"))
    return { kind: "answerable", fingerprint: fingerprint(method, phase.initialize, params), next: phase };
  return { kind: "other" };
}
