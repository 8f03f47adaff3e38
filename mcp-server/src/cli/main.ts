import { ConfigError, readCommand, USAGE } from "../config/server-config.js";
import { verifyAuditCommand } from "../audit/verify-audit-command.js";
import { startContext } from "../server/start-context.js";
import { startHttpServer } from "../transport/http-server.js";
import { serveStdio } from "../transport/stdio-server.js";

// stdout carries the protocol only: every log line goes to stderr.
const log = (line: string) => process.stderr.write(`custody-mcp: ${line}\n`);

async function main(): Promise<number> {
  const command = readCommand(process.argv.slice(2), process.env);
  if (command.command === "help") {
    process.stderr.write(USAGE);
    return 0;
  }
  if (command.command === "verify-audit") return verifyAuditCommand(command.file, (line) => process.stdout.write(`${line}\n`));
  const { config } = command;
  const started = await startContext(config, log);
  const stop = async (code: number) => {
    await started.close();
    process.exit(code);
  };
  process.once("SIGINT", () => void stop(130));
  process.once("SIGTERM", () => void stop(143));
  if (config.http === null) {
    await serveStdio(started.ctx);
    await started.close();
    return 0;
  }
  const http = await startHttpServer(started.ctx, config.http, log);
  log(`Streamable HTTP at ${http.url}`);
  if (config.http.token === null) log(`bearer token (set CUSTODY_MCP_TOKEN to choose it): ${http.token}`);
  await new Promise<never>(() => {});
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(error instanceof ConfigError || (error instanceof Error && error.name === "PolicyFileError") ? error.message : (error as Error).stack ?? String(error));
    process.exitCode = 2;
  },
);
