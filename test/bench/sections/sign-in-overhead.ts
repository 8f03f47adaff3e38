import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAuthorizationServer } from "../../support/authorization-server.js";
import { freePort } from "../../support/free-port.js";
import { startReplica, type ReplicaProcess } from "../../support/replica-process.js";
import { openTeamSession, type TeamSession } from "../../support/team-session.js";
import type { Figure, Section } from "../support/bench-report.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";

export interface SignInOverheadInput {
  /** The built server. */
  custody: string;
  /** The emulator both servers call, and the operator they act as. */
  baseUrl: string;
  operator: string;
  accountId: number;
  calls: number;
}

const SHARED_TOKEN = "bench-shared-bearer-token-0123456789";

/**
 * A read tool over Streamable HTTP with a signed-in person's access token (a JWT checked with
 * jose against the issuer's keys on every request) beside the same call with the shared bearer
 * token, two processes of the same bundle on the same emulator, calls alternating in blocks.
 */
export async function measureSignInOverhead(input: SignInOverheadInput): Promise<Section> {
  const home = mkdtempSync(join(tmpdir(), "custody-bench-sign-in-"));
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const authorization = await startAuthorizationServer(await freePort(), resource);
  // Started as replicas (the way a team runs it), which share a token secret.
  const secret = join(home, "token-secret");
  writeFileSync(secret, randomBytes(32), { mode: 0o600 });
  const common = { HOME: home, CUSTODY_BASE_URL: input.baseUrl, CUSTODY_OPERATOR: input.operator, CUSTODY_TOKEN_SECRET_FILE: secret };
  const servers: ReplicaProcess[] = [];
  const sessions: TeamSession[] = [];
  try {
    servers.push(await startReplica(input.custody, "oauth", port, { ...common, CUSTODY_AUTH_ISSUER: authorization.issuer, CUSTODY_PUBLIC_URL: resource }));
    const sharedPort = await freePort();
    servers.push(await startReplica(input.custody, "shared", sharedPort, { ...common, CUSTODY_MCP_TOKEN: SHARED_TOKEN }));
    const signedIn = await openTeamSession(resource, await authorization.personToken("alice", ["custody:read"]));
    const shared = await openTeamSession(`http://127.0.0.1:${sharedPort}/mcp`, SHARED_TOKEN);
    sessions.push(signedIn, shared);
    const read = (session: TeamSession) => async () => {
      const answer = await session.call("get_account", { account: String(input.accountId) });
      if ((answer.structured.account as { id?: number } | undefined)?.id !== input.accountId)
        throw new Error(`get_account failed: ${answer.text.slice(0, 200)}`);
    };
    for (let index = 0; index < 30; index += 1) {
      await read(signedIn)();
      await read(shared)();
    }
    const withToken: number[] = [];
    const withShared: number[] = [];
    for (let done = 0; done < input.calls; done += 25) {
      for (let index = 0; index < 25; index += 1) withToken.push(await timed(read(signedIn)));
      for (let index = 0; index < 25; index += 1) withShared.push(await timed(read(shared)));
    }
    const row = (p: number): Figure => {
      const value = roundMs(percentile(withToken, p));
      const base = roundMs(percentile(withShared, p));
      const r = ratio(value, base);
      return {
        measure: `get_account over Streamable HTTP with a person's access token (JWT verified per request), p${p}`,
        value,
        unit: "ms",
        baseline: "the same call with the shared bearer token",
        baselineValue: base,
        ratio: r,
        target: "at most 1.25x",
        meetsTarget: r === null ? null : r <= 1.25,
        note: `overhead ${roundMs(value - base)} ms`,
      };
    };
    return { title: `Signing in (${input.calls} calls each, sequential)`, figures: [row(50), row(99)], details: { calls: input.calls } };
  } finally {
    for (const session of sessions) await session.close();
    for (const server of servers) await server.stop();
    await authorization.stop();
  }
}
