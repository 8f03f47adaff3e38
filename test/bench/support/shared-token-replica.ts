import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../support/free-port.js";
import { startReplica } from "../../support/replica-process.js";

/** The bench's bearer token for a server it starts over Streamable HTTP. */
export const BENCH_BEARER_TOKEN = "bench-shared-bearer-token-over-http-0123";

export interface SharedTokenServer {
  /** The MCP endpoint. */
  url: string;
  token: string;
  /** Resolves once the server has written `text` on stderr. */
  waitForStderr(text: string): Promise<void>;
  stderr(): string;
  stop(): Promise<void>;
}

/** The built server over Streamable HTTP on a loopback port, with the shared bearer token, a home, audit log and token secret of its own. */
export async function startSharedTokenServer(custody: string, id: string, workspace: { baseUrl: string; operator: string }): Promise<SharedTokenServer> {
  const home = mkdtempSync(join(tmpdir(), `custody-bench-${id}-`));
  const secret = join(home, "token-secret");
  writeFileSync(secret, randomBytes(32), { mode: 0o600 });
  const port = await freePort();
  const env = {
    HOME: home,
    CUSTODY_BASE_URL: workspace.baseUrl,
    CUSTODY_OPERATOR: workspace.operator,
    CUSTODY_MCP_TOKEN: BENCH_BEARER_TOKEN,
    CUSTODY_AUDIT_LOG: join(home, "audit.jsonl"),
    CUSTODY_TOKEN_SECRET_FILE: secret,
  };
  const replica = await startReplica(custody, id, port, env);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token: BENCH_BEARER_TOKEN,
    waitForStderr: (text) => replica.waitForStderr(text, 120_000),
    stderr: () => replica.stderr(),
    stop: () => replica.stop(),
  };
}
