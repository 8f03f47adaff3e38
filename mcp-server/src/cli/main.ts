import { ConfigError, readCommand, USAGE } from "../config/server-config.js";
import { startContext } from "../assembly/start-context.js";
import { SHUTDOWN_GRACE_MS } from "../shutdown/drainable.js";
import { serveStdio } from "../transport/stdio-server.js";
import { endOnClosedPipe, quietStdout } from "./closed-pipe.js";
import { existingSealKey, sealKeySetting } from "../guard/seal-key-setting.js";
import { OPTIONS, settingName } from "../config/options.js";
import { abandonClientStdio, clientStdio } from "../opening/client-stdio.js";

// stdout carries the protocol only: every log line goes to stderr.
const log = (line: string) => process.stderr.write(`custody-mcp: ${line}\n`);
/** Errors whose message says all a person needs (the file or setting and what is wrong with it): said alone, without a stack trace. */
const NAMED_ERRORS = new Set(["PolicyFileError", "AuditSealError", "AuditLogRefused"]);

interface StopReason {
  why: string;
  code: number;
}

/** The first SIGINT or SIGTERM starts a graceful stop; a second of the same signal ends the process at once. */
function firstSignal(): Promise<StopReason> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve({ why: "SIGINT", code: 130 }));
    process.once("SIGTERM", () => resolve({ why: "SIGTERM", code: 143 }));
  });
}

function logStopping(reason: StopReason, pending: number): void {
  const under = pending === 0 ? "nothing under way" : `finishing ${pending} request(s) under way (at most ${SHUTDOWN_GRACE_MS / 1000} s)`;
  log(`${reason.why}: stopping, taking no new request; ${under}`);
}

/** Ends a serving process once every answer has been written, rather than wait for idle keep-alive sockets. */
function stopped(left: number, code: number): never {
  if (left > 0) log(`stopped with ${left} request(s) unfinished after ${SHUTDOWN_GRACE_MS / 1000} s`);
  process.exit(code);
}

async function main(): Promise<number> {
  const command = readCommand(process.argv.slice(2), process.env);
  if (command.command === "help") {
    process.stderr.write(USAGE);
    return 0;
  }
  if (command.command === "verify-audit") {
    const { verifyAuditCommand } = await import("./optional-modules.js");
    return verifyAuditCommand(command.target, quietStdout(), existingSealKey(command.sealKeyFile));
  }
  if (command.command === "reseal-audit") {
    const { resealAuditCommand } = await import("./optional-modules.js");
    return resealAuditCommand(command.target, sealKeySetting(command.sealKeyFile), quietStdout());
  }
  if (command.command === "export-audit") {
    const { exportAuditCommand } = await import("./optional-modules.js");
    // A reader that stops early (| head) leaves an export unfinished: it ends at once, quietly, and says so by its status.
    endOnClosedPipe(process.stdout, () => process.exit(1));
    return exportAuditCommand(command.storeUrl, process.stdout, log);
  }
  const { config } = command;
  const started = await startContext(config, log);
  const signalled = firstSignal();
  if (config.http === null) {
    // Loaded when the client first lists the tools: the warm-up names every write's definition, which a start must not build.
    const warmUpLater = () => void import("../on-demand/warm-up.js").then(({ warmUp }) => warmUp(started.ctx, log));
    const session = await serveStdio(started.ctx, log, started.changes, warmUpLater, clientStdio());
    const reason = await Promise.race([session.ended.then(() => ({ why: "the client closed stdin", code: 0 })), signalled]);
    logStopping(reason, session.pending);
    const left = await session.shutdown(SHUTDOWN_GRACE_MS);
    await started.close();
    return stopped(left, reason.code);
  }
  // Imported only with --http: the HTTP transport (and the undici it makes Node load) costs a stdio start 30 ms.
  const { startHttpServer, warmUp } = await import("./optional-modules.js");
  let http;
  try {
    http = await startHttpServer(started.ctx, config.http, log, started.changes);
  } catch (error) {
    // What started for it (the embedded workspace, the store) must not keep the process alive: it stops, and says why.
    await started.close();
    throw listenRefusal(error, config.http);
  }
  log(`Streamable HTTP at ${http.url}`);
  warmUp(started.ctx, log);
  if (config.http.oauth !== null)
    log(`signing in through ${config.http.oauth.issuer}: access tokens for ${config.http.oauth.resource} only (no shared bearer token)`);
  else if (config.http.token === null) log(`bearer token (set ${OPTIONS.token.env} to choose it): ${http.token}`);
  const reason = await signalled;
  logStopping(reason, http.pending);
  const left = await http.shutdown(SHUTDOWN_GRACE_MS);
  await started.close();
  return stopped(left, reason.code);
}

/** A port another program holds, said as a setting to change rather than as a stack trace. */
function listenRefusal(error: unknown, http: { host: string; port: number }): unknown {
  if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") return error;
  return new ConfigError(
    `${settingName(OPTIONS.port)}: ${http.host}:${http.port} is already in use (another server listens there); stop it, or choose another port`,
  );
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const named = error instanceof ConfigError || (error instanceof Error && NAMED_ERRORS.has(error.name));
    log(named ? (error as Error).message : ((error as Error).stack ?? String(error)));
    process.exitCode = 2;
    // The opening front may have answered the client already: it must not keep the process waiting for more.
    abandonClientStdio();
  },
);
