// Preloaded (node --import) by test/bench/call-stages.mjs into the MCP server, the emulator and the
// harness itself: timestamps (process.hrtime.bigint, one clock for every process on the machine) of
// the stages of a call, written as "label nanoseconds" lines to $CUSTODY_STAGE_MARKS when the process
// exits (a process that reads its own marks finds them in globalThis.__custodyStageMarks and unsets the
// variable). Nothing is marked without it.
import diagnostics from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
import net from "node:net";

const file = process.env.CUSTODY_STAGE_MARKS;
if (file) {
  const marks = [];
  const mark = (label) => marks.push(label, process.hrtime.bigint());
  globalThis.__custodyStageMarks = marks;
  // A client's request: bytes handed to a TCP socket (stdio pipes have no remote port), its answer's head and end.
  const writeGeneric = net.Socket.prototype._writeGeneric;
  net.Socket.prototype._writeGeneric = function (...args) {
    if (this.remotePort) mark("socketWrite");
    return writeGeneric.apply(this, args);
  };
  diagnostics.subscribe("http.client.response.finish", ({ response }) => {
    mark("answerHead");
    response.once("end", () => mark("answerEnd"));
  });
  // A server's request (the emulator): parsed, and its answer handed to the socket.
  diagnostics.subscribe("http.server.request.start", ({ response }) => {
    mark("serverRequest");
    response.once("finish", () => mark("serverAnswered"));
  });
  if (process.env.CUSTODY_STAGE_STDIO) {
    process.stdin.prependListener("data", () => mark("stdin"));
    const write = process.stdout.write;
    process.stdout.write = function (...args) {
      mark("stdoutWrite");
      const written = write.apply(this, args);
      mark("stdoutWritten");
      return written;
    };
  }
  process.on("exit", () => {
    if (!process.env.CUSTODY_STAGE_MARKS) return;
    let lines = "";
    for (let index = 0; index < marks.length; index += 2) lines += `${marks[index]} ${marks[index + 1]}\n`;
    writeFileSync(file, lines);
  });
  process.on("SIGTERM", () => process.exit(0));
}
