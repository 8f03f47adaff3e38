import { repeatedKey, type RepeatedKey } from "@custody/shared/repeated-key";
import { isReadableId, messageShapeProblem, type ShapeProblem } from "./message-shape.js";

// How one message from the client (an HTTP body, a stdio line) is read before the SDK sees it, the
// same over both transports. No SDK here: the stdio opening front (opening/opening-front.ts) reads
// lines by these rules before the SDK is loaded, and answers none that the server would refuse.

/** Why a message was not read. */
export type UnreadMessage =
  /** Not JSON: JSON-RPC's parse error, which names no id. */
  | { problem: "not-json"; error: SyntaxError }
  /** One object names a key twice: JSON.parse keeps the last, a reader keeping the first sees another message. */
  | { problem: "repeated-key"; repeated: RepeatedKey; message: unknown }
  /** A request's id is a number JSON.parse cannot read exactly (beyond 2^53-1, or not whole): an answer could not name it. */
  | { problem: "unreadable-id"; message: unknown }
  /** JSON, but no JSON-RPC 2.0 message (message-shape.ts): the SDK would drop it, over stdio without an answer. */
  | { problem: "not-a-message"; broken: ShapeProblem; message: unknown };

export type ClientMessageRead = { message: unknown } | { refused: UnreadMessage };

function namesMethod(message: unknown): message is { method: string; id?: unknown } {
  return typeof message === "object" && message !== null && typeof (message as { method?: unknown }).method === "string";
}

/** A request (a single message, or one in a batch) whose id is a number that is not read exactly. */
function hasUnreadableId(message: unknown): boolean {
  if (Array.isArray(message)) return message.some(hasUnreadableId);
  return namesMethod(message) && typeof message.id === "number" && !isReadableId(message.id);
}

/**
 * The id an error answer to this message echoes: a single request's string or whole-number id, read
 * exactly. A batch, a notification, a response, a message not read or not JSON has none to echo
 * (null), and only then is an error's id null (2026-07-28 requires every error to carry its request's id).
 */
export function echoableId(message: unknown): string | number | null {
  return namesMethod(message) && isReadableId(message.id) ? message.id : null;
}

/** The message in `text`, as JSON, or why it is refused: not JSON, a key named twice in one object, an id not read exactly, no JSON-RPC message. */
export function readClientMessage(text: string): ClientMessageRead {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { refused: { problem: "not-json", error: error as SyntaxError } };
  }
  const repeated = repeatedKey(text);
  if (repeated !== null) return { refused: { problem: "repeated-key", repeated, message } };
  if (hasUnreadableId(message)) return { refused: { problem: "unreadable-id", message } };
  const broken = messageShapeProblem(message);
  if (broken !== null) return { refused: { problem: "not-a-message", broken, message } };
  return { message };
}
