import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from "@modelcontextprotocol/server";

// Which of JSON-RPC's kinds a message is, told by its fields: for the messages a transport wrapper
// sees, which the SDK has already checked (what its transport read, against the four strict
// shapes) or built (what it sends). The SDK's isJSONRPC* guards would parse each one again with
// zod: six parses for every tools/call through the stdio wrappers.

export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

export function isNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return "method" in message && !("id" in message);
}

/** The request a response (a result or an error) answers, or undefined for a request, a notification, or an error that names none. */
export function answeredId(message: JSONRPCMessage): RequestId | undefined {
  return ("result" in message || "error" in message) && "id" in message ? message.id : undefined;
}
