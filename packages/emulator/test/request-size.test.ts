import { request as httpRequest } from "node:http";
import { ErrorBody } from "@custody/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalSolana } from "../src/seed/demo-addresses.js";
import { MAX_BODY_BYTES } from "../src/http/read-body.js";
import { OP_A, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

// A body is refused by its size before anything parses it, and an amount by its length before
// anything converts it: a 3-million-digit amount took 15 s of the event loop.

const hugeSend = (digits: number) =>
  JSON.stringify({ account_name: "sol-auto", amount: "9".repeat(digits), max_fees: "7500", recipient: externalSolana("sizes"), speed: "NORMAL" });

describe("request sizes", () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await standardWorkspace();
  });
  afterAll(async () => {
    await w.close();
  });

  /** A POST in chunks (Transfer-Encoding: chunked): its size is known only by reading it. */
  function chunkedPost(path: string, body: string): Promise<{ status: number; text: string }> {
    const url = new URL(`${w.emulator.baseUrl}${path}`);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", "x-vendor-api-user": OP_A } },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.slice(at, at + 64 * 1024));
      req.end();
    });
  }

  it("answers 413 to a body over 1 MiB, by its declared length or as it is read, and goes on serving", async () => {
    expect(MAX_BODY_BYTES).toBe(1_048_576);
    const declared = await w.api(OP_A).call("POST", "/transactions", undefined, hugeSend(3_000_000));
    expect(declared.status).toBe(413);
    expect(decode(ErrorBody, declared)).toMatchObject({
      name: "PayloadTooLarge",
      message: `body: must be at most 1048576 bytes, this one declares ${hugeSend(3_000_000).length}`,
    });
    const streamed = await chunkedPost("/transactions", hugeSend(3_000_000));
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.text)).toMatchObject({ name: "PayloadTooLarge", message: "body: must be at most 1048576 bytes" });
    expect((await w.api(OP_A).get("/accounts")).status).toBe(200);
  });

  it("refuses an amount of 900,000 digits within the limit by its length, naming the field", async () => {
    const answer = await w.api(OP_A).call("POST", "/transactions", undefined, hugeSend(900_000));
    expect(answer.status).toBe(400);
    expect(decode(ErrorBody, answer).message).toBe("amount: at most 80 characters, got 900000");
  });
});
