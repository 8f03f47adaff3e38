import { deserializeMessage, RELATED_TASK_META_KEY } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { messageShapeProblem } from "../src/wire/message-shape.js";

// The shape check the transports read a message by before the SDK (wire/message-shape.ts) is
// written without the SDK: it must take exactly what the SDK's stdio transport takes, no more
// (the SDK would drop it unanswered) and no less (a message the SDK serves would be refused).
// Through both transports: client-message-refusals.test.ts.

const TASK = JSON.stringify(RELATED_TASK_META_KEY);

const LINES = [
  // Neither an object nor a message.
  "42",
  '"x"',
  "null",
  "true",
  "{}",
  '{"jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":4}',
  // Requests.
  '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}',
  '{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}',
  '{"id":1,"method":"ping"}',
  '{"jsonrpc":"1.0","id":1,"method":"ping"}',
  '{"jsonrpc":2,"id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
  '{"jsonrpc":"2.0","id":[1],"method":"ping"}',
  '{"jsonrpc":"2.0","id":true,"method":"ping"}',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":5}',
  '{"jsonrpc":"2.0","id":1,"method":null}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":5}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":null}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"any":[1,{"x":null}]}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":null}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":[]}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"other":5}}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":"t"}}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":7}}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1.5}}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":9007199254740992}}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":null}}}',
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{${TASK}:{"taskId":"t","more":1}}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{${TASK}:{"taskId":5}}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{${TASK}:null}}}`,
  // Notifications.
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
  '{"jsonrpc":"2.0","method":5}',
  '{"jsonrpc":"2.0","method":"notifications/x","params":"p"}',
  '{"jsonrpc":"2.0","method":"notifications/x","extra":true}',
  // Responses (a client answering the server's request).
  '{"jsonrpc":"2.0","id":1,"result":{}}',
  '{"jsonrpc":"2.0","id":"s","result":{"action":"accept","_meta":{"k":1}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":null}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":5}}}',
  '{"jsonrpc":"2.0","id":1,"result":[]}',
  '{"jsonrpc":"2.0","id":1,"result":null}',
  '{"jsonrpc":"2.0","result":{}}',
  '{"jsonrpc":"2.0","id":null,"result":{}}',
  '{"jsonrpc":"2.0","id":1.5,"result":{}}',
  '{"jsonrpc":"2.0","id":1,"result":{},"extra":1}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}',
  '{"jsonrpc":"2.0","error":{"code":-1,"message":"m","data":[1],"other":2}}',
  '{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m"}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":9007199254740993,"message":"m"}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":-1}}',
  '{"jsonrpc":"2.0","id":1,"error":"boom"}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-1,"message":"m"}}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}',
];

/** Whether the SDK's stdio transport takes the line (it drops one it cannot read as a message). */
function sdkTakes(line: string): boolean {
  try {
    deserializeMessage(line);
    return true;
  } catch {
    return false;
  }
}

describe("the JSON-RPC shape check", () => {
  it.each(LINES)("takes %s exactly when the SDK does", (line) => {
    expect(messageShapeProblem(JSON.parse(line)) === null).toBe(sdkTakes(line));
  });

  it("names the field and the rule a message breaks", () => {
    expect(messageShapeProblem({ jsonrpc: "2.0", id: 1, method: "ping", extra: 1 })).toEqual({
      field: "extra",
      rule: "is not allowed: a request has only jsonrpc, id, method, params",
    });
    expect(messageShapeProblem({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: 1.5 } } })?.field).toBe("params._meta.progressToken");
    expect(messageShapeProblem([{ jsonrpc: "2.0", method: "notifications/x" }, 42])).toMatchObject({
      field: "[1]",
      rule: expect.stringMatching(/; not a number$/) as unknown,
    });
  });

  it("takes a batch of messages (Streamable HTTP serves one in a 2025-11-25 session), not an empty one nor one holding anything else", () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect(messageShapeProblem([ping, { jsonrpc: "2.0", method: "notifications/initialized" }])).toBeNull();
    expect(messageShapeProblem([])?.rule).toBe("a batch holds at least one message; this array is empty");
    expect(messageShapeProblem([ping, { ...ping, jsonrpc: "1.0" }])).toEqual({ field: "[1].jsonrpc", rule: 'must be "2.0"' });
    expect(messageShapeProblem([[ping]])?.field).toBe("[0]");
  });
});
