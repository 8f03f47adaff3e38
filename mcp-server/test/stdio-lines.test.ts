import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { STDIO_MAX_LINE_BYTES } from "../src/wire/stdio-line-splitter.js";
import { CheckedLines } from "../src/transport/stdio-lines.js";

// The stdio line check on its own, fed chunks cut anywhere (a pipe hands over what it has): what
// it passes on to the SDK's transport and what it answers itself. Through the built server:
// client-message-refusals.test.ts.

async function fed(chunks: (string | Buffer)[]): Promise<{ passed: string; answers: { id: unknown; error: { code: number } }[] }> {
  const answers: string[] = [];
  const lines = new CheckedLines(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        answers.push(String(chunk));
        done();
      },
    }),
  );
  const passed: Buffer[] = [];
  lines.on("data", (chunk: Buffer) => passed.push(chunk));
  for (const chunk of chunks) lines.write(chunk);
  lines.end();
  await new Promise((resolve) => lines.once("end", resolve));
  return { passed: Buffer.concat(passed).toString("utf8"), answers: answers.map((answer) => JSON.parse(answer) as { id: unknown; error: { code: number } }) };
}

describe("the stdio line check", () => {
  it("passes on whole lines as they came, however the chunks cut them, and answers the refused ones in their place", async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n';
    const twice = '{"jsonrpc":"2.0","id":2,"id":3,"method":"ping"}\n';
    const later = '{"jsonrpc":"2.0","id":"é4","method":"ping"}\n';
    const text = `${ping}\n${twice}not json\n${later}`;
    // Cut inside a line, inside a multi-byte character, and between lines.
    const bytes = Buffer.from(text);
    const cuts = [5, ping.length + 1, ping.length + 10, bytes.indexOf(Buffer.from("é")) + 1];
    const chunks = [0, ...cuts].map((start, index) => bytes.subarray(start, [...cuts, bytes.length][index]));
    const { passed, answers } = await fed(chunks);
    expect(passed).toBe(`${ping}\n${later}`);
    expect(answers.map((answer) => [answer.id, answer.error.code])).toEqual([
      [null, -32600],
      [null, -32700],
    ]);
  });

  it("passes on a line longer than the transport takes unread, to its end, for the transport to refuse", async () => {
    const long = `${"x".repeat(STDIO_MAX_LINE_BYTES + 10)}\n`;
    // Its end in the chunk that makes it too long, or in a later one.
    for (const cut of [1000, STDIO_MAX_LINE_BYTES + 5]) {
      const { passed, answers } = await fed([long.slice(0, cut), long.slice(cut), "not json either\n"]);
      expect(passed).toBe(long);
      expect(answers.map((answer) => answer.error.code)).toEqual([-32700]);
    }
  });
});

describe("answers the client does not read", () => {
  it("are written one at a time: while the output holds one, no line is read and the input is told to wait", async () => {
    const written: string[] = [];
    /** The most the output held when it was handed an answer (that answer included). */
    let mostHeld = 0;
    // An output that takes an answer on a later turn, as stdout does when its pipe is full.
    const answers = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        mostHeld = Math.max(mostHeld, answers.writableLength);
        written.push(String(chunk));
        setImmediate(done);
      },
    });
    const lines = new CheckedLines(answers);
    lines.resume();
    const chunk = "not json\n".repeat(200);
    const accepted = Array.from({ length: 40 }, () => lines.write(chunk));
    lines.end();
    await new Promise((resolve) => lines.once("finish", resolve));
    answers.end();
    await new Promise((resolve) => answers.once("finish", resolve));
    expect(mostHeld).toBe(Buffer.byteLength(written[0] as string));
    expect(accepted).toContain(false);
    expect(written).toHaveLength(40 * 200);
  });
});
