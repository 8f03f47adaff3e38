import { serveStdio as serveStdioConnection, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createMcpServer } from "../assembly/create-server.js";
import type { ContextSource } from "../server/server-context.js";
import { settle } from "../shutdown/drainable.js";
import { DrainingTransport } from "../shutdown/draining-transport.js";
import { WorkInFlight } from "../shutdown/work-in-flight.js";
import { DEFAULT_MAX_SESSIONS } from "../config/options.js";
import { perPersonShare } from "../subscriptions/subscription-limits.js";
import { readableResources } from "../resources/register-resources.js";
import { forwardChanges } from "../subscriptions/forward-changes.js";
import { inProcessChanges, type ResourceChanges } from "../subscriptions/resource-changes.js";
import { CheckedLines } from "./stdio-lines.js";
import { StdioListens } from "./stdio-listens.js";
import { StdioRevisions } from "./stdio-revisions.js";
import { inputThatStaysOpen, outputThatNeverFails } from "./stdio-streams.js";
import type { ClientStdio } from "../opening/client-stdio.js";
import { STDIO_MAX_LINE_BYTES } from "../wire/stdio-line-splitter.js";

export interface StdioSession {
  /** Resolves when the client's input ends: it will send nothing more. */
  readonly ended: Promise<void>;
  /** Requests under way (unanswered requests and running tool calls). */
  readonly pending: number;
  /**
   * Stops taking requests, lets those under way finish and their answers be written (for at most
   * graceMs), then closes the session. Resolves with the number left unfinished.
   */
  shutdown(graceMs: number): Promise<number>;
}

/** Resolves once everything written to the stream before it has been handed on. */
function flushed(stream: NodeJS.WritableStream & { destroyed?: boolean }): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed === true || !stream.writable) resolve();
    else stream.write("", () => resolve());
  });
}

/**
 * Serves one connection over stdin/stdout, in the era its opening chooses: 2025-11-25 after
 * initialize, or 2026-07-28 (server/discover and requests carrying their version in _meta).
 */
export async function serveStdio(
  ctx: ContextSource,
  log: (line: string) => void,
  changes?: ResourceChanges,
  warmUp?: () => void,
  client: ClientStdio = { input: process.stdin, output: process.stdout },
): Promise<StdioSession> {
  const ownChanges = changes === undefined ? inProcessChanges(ctx, { log }) : null;
  const resourceChanges = changes ?? (ownChanges as ResourceChanges);
  const work = new WorkInFlight();
  const output = outputThatNeverFails(client.output);
  // Lines the SDK would drop or misread are answered before it reads them (stdio-lines.ts).
  const input = inputThatStaysOpen(client.input, new CheckedLines(output));
  const transport = new DrainingTransport(new StdioServerTransport(input, output, { maxBufferSize: STDIO_MAX_LINE_BYTES }));
  // A client that went away cannot read its answers; the calls under way still finish (and are audited).
  process.stdout.on("error", (error) => log(`stdout: ${error.message}; answers can no longer be delivered`));
  const ended = new Promise<void>((resolve) => {
    const end = () => {
      transport.endOfInput();
      resolve();
    };
    client.input.once("end", end);
    client.input.once("close", end);
    // The transport also closes on its own when it cannot read the input.
    void transport.closed.then(resolve);
  });
  // A client that lists the tools is about to offer them: build what their first calls need, the
  // directory of account names included, once, after that answer (`warmUp`, on-demand/warm-up.ts); a client that
  // only reads resources or prompts never pays for it.
  let warming = false;
  const toolsListed = () => {
    if (warming || warmUp === undefined) return;
    warming = true;
    warmUp();
  };
  // One server for the connection, built at its opening (the SDK pins it, whichever the era).
  const factory = ({ era }: { era: "legacy" | "modern" }) => {
    const server = createMcpServer(ctx, { work, changes: resourceChanges, toolsListed });
    if (era === "modern") forwardChanges(server, resourceChanges);
    return server;
  };
  const listens = new StdioListens(new StdioRevisions(transport), resourceChanges, readableResources(ctx.policy, null));
  const connection = serveStdioConnection(factory, {
    transport: listens,
    maxSubscriptions: perPersonShare(DEFAULT_MAX_SESSIONS),
    onerror: (error) => log(`stdio: ${error.message}`),
  });
  // A tool call is both an unanswered request and running work: count it once.
  const pending = () => Math.max(transport.pending, work.pending);
  return {
    ended,
    get pending() {
      return pending();
    },
    async shutdown(graceMs) {
      transport.stopAccepting();
      work.stopAccepting();
      await settle([transport, work], graceMs);
      const left = pending();
      await flushed(output);
      await flushed(client.output);
      if (client.output !== process.stdout) await flushed(process.stdout);
      await connection.close();
      await ownChanges?.close();
      return left;
    },
  };
}
