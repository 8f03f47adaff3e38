// What makes a parsed message a JSON-RPC 2.0 message as MCP takes it: the rules of the SDK's
// JSONRPCMessageSchema (a request, a notification, a result or an error response, each object
// closed to other keys), written without the SDK so the stdio opening front can read lines by them
// before it is loaded. The SDK's transports drop a message breaking them (stdio without a word), or
// refuse it with their own words; reading it first lets both transports refuse it alike.

/** A rule a message breaks: the field it is about (a path such as `params._meta`, or a key the message should not have), or null for the message as a whole. */
export interface ShapeProblem {
  field: string | null;
  rule: string;
}

/** Whether a request's id can be read and echoed as it was sent: a string, or a whole number within ±(2^53-1). */
export function isReadableId(id: unknown): id is string | number {
  return typeof id === "string" || Number.isSafeInteger(id);
}

const RELATED_TASK_KEY = "io.modelcontextprotocol/related-task";
const ID_RULE = "must be a string or a whole number from -(2^53-1) to 2^53-1";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function has(message: JsonObject, key: string): boolean {
  return Object.hasOwn(message, key);
}

const problem = (field: string | null, rule: string): ShapeProblem => ({ field, rule });

/** The first key the message has beyond those its kind takes. */
function otherKey(message: JsonObject, kind: string, keys: readonly string[]): ShapeProblem | null {
  const other = Object.keys(message).find((key) => !keys.includes(key));
  return other === undefined ? null : problem(other, `is not allowed: ${kind} has only ${keys.join(", ")}`);
}

function paramsProblem(message: JsonObject): ShapeProblem | null {
  if (!has(message, "params")) return null;
  const { params } = message;
  if (!isObject(params)) return problem("params", "must be an object");
  if (!has(params, "_meta")) return null;
  const meta = params._meta;
  if (!isObject(meta)) return problem("params._meta", "must be an object");
  if (has(meta, "progressToken") && !isReadableId(meta.progressToken)) return problem("params._meta.progressToken", ID_RULE);
  const task = meta[RELATED_TASK_KEY];
  if (has(meta, RELATED_TASK_KEY) && !(isObject(task) && typeof task.taskId === "string"))
    return problem(`params._meta.${RELATED_TASK_KEY}`, 'must be an object whose "taskId" is a string');
  return null;
}

/** A request (with an id) or a notification (without). */
function callProblem(message: JsonObject): ShapeProblem | null {
  if (typeof message.method !== "string") return problem("method", "must be a string");
  if (!has(message, "id")) return paramsProblem(message) ?? otherKey(message, "a notification", ["jsonrpc", "method", "params"]);
  if (!isReadableId(message.id)) return problem("id", `${ID_RULE} (a notification has no id)`);
  return paramsProblem(message) ?? otherKey(message, "a request", ["jsonrpc", "id", "method", "params"]);
}

/** A response the client gives to the server's request (an elicitation's, a sampling's). */
function responseProblem(message: JsonObject): ShapeProblem | null {
  if (has(message, "result") && has(message, "error")) return problem(null, 'a response carries "result" or "error", not both');
  if (has(message, "result")) {
    if (!isReadableId(message.id)) return problem("id", ID_RULE);
    const { result } = message;
    if (!isObject(result)) return problem("result", "must be an object");
    if (has(result, "_meta") && !isObject(result._meta)) return problem("result._meta", "must be an object");
    return otherKey(message, "a result", ["jsonrpc", "id", "result"]);
  }
  if (has(message, "id") && !isReadableId(message.id)) return problem("id", `${ID_RULE}, or be left out`);
  const { error } = message;
  if (!isObject(error)) return problem("error", "must be an object");
  if (!Number.isSafeInteger(error.code)) return problem("error.code", "must be a whole number");
  if (typeof error.message !== "string") return problem("error.message", "must be a string");
  return otherKey(message, "an error response", ["jsonrpc", "id", "error"]);
}

const OBJECT_RULE = "a JSON object (a request, a notification or a response)";

function singleProblem(message: JsonObject): ShapeProblem | null {
  if (message.jsonrpc !== "2.0") return problem("jsonrpc", 'must be "2.0"');
  if (has(message, "method")) return callProblem(message);
  if (has(message, "result") || has(message, "error")) return responseProblem(message);
  return problem(null, 'the message names no "method" (a request or a notification) and no "result" or "error" (a response)');
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** The rule a parsed message (or batch) breaks, or null when it is a JSON-RPC 2.0 message MCP takes. */
export function messageShapeProblem(message: unknown): ShapeProblem | null {
  if (isObject(message)) return singleProblem(message);
  if (!Array.isArray(message)) return problem(null, `a message is ${OBJECT_RULE}, or a batch (an array) of them; not ${describe(message)}`);
  if (message.length === 0) return problem(null, "a batch holds at least one message; this array is empty");
  for (const [index, element] of message.entries()) {
    const found = isObject(element) ? singleProblem(element) : problem(null, `must be ${OBJECT_RULE}; not ${describe(element)}`);
    if (found !== null) return problem(`[${index}]${found.field === null ? "" : `.${found.field}`}`, found.rule);
  }
  return null;
}
