import { oneLineUntrusted, shortenedText } from "@custody/shared";
import { INVALID_REQUEST, PARSE_ERROR, type RequestId } from "@modelcontextprotocol/server";
import { echoableId, type UnreadMessage } from "../wire/client-message.js";

/** The JSON-RPC error a message the client sent is refused with, over HTTP (status 400) and stdio alike. */
export interface MessageRefusal {
  code: number;
  message: string;
  id: RequestId | null;
}

/** The parser's own words quote the text it stopped at: shown sanitised, on one line, and short. */
const PARSER_MESSAGE_LENGTH = 200;
/** The longest a key (repeated, or not allowed) is quoted: a key may be as long as the message. */
const KEY_SHOWN = 64;

const UNREADABLE_ID_RULE =
  `a request's id given as a number must be a whole number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (2^53-1), ` +
  "which JSON numbers carry exactly (a larger one would be answered with another id); give it as a string";

export function messageRefusal(unread: UnreadMessage): MessageRefusal {
  switch (unread.problem) {
    case "not-json":
      return {
        code: PARSE_ERROR,
        message: `Parse error: the message is not valid JSON (${oneLineUntrusted(unread.error.message, PARSER_MESSAGE_LENGTH)})`,
        id: null,
      };
    case "repeated-key": {
      const { key, outermost } = unread.repeated;
      return {
        code: INVALID_REQUEST,
        message:
          `Invalid request: the message names the key "${shortenedText(key, KEY_SHOWN, "key")}" twice in one object; each key at most once ` +
          "(a reader keeping the first would see another request)",
        // A repeated id is no id to echo: which of the two would it be?
        id: outermost && key === "id" ? null : echoableId(unread.message),
      };
    }
    case "unreadable-id":
      return { code: INVALID_REQUEST, message: `Invalid request: ${UNREADABLE_ID_RULE}`, id: null };
    case "not-a-message": {
      const { field, rule } = unread.broken;
      const shown = field === null ? "" : `"${shortenedText(field, KEY_SHOWN, "field")}" `;
      return { code: INVALID_REQUEST, message: `Invalid request: not a JSON-RPC 2.0 message: ${shown}${rule}`, id: echoableId(unread.message) };
    }
  }
}

/** A batch over stdio: the SDK's stdio transport reads one message a line and drops an array without a word (MCP has had no batches since 2025-06-18). */
export const STDIO_BATCH_REFUSAL: MessageRefusal = {
  code: INVALID_REQUEST,
  message: "Invalid request: a batch (an array of messages) is not served over stdio; send each message on a line of its own",
  id: null,
};
