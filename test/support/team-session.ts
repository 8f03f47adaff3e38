import { tokenFromText } from "@custody/mcp-server";
import { Client, StreamableHTTPClientTransport, type ElicitResult } from "@modelcontextprotocol/client";

/** An MCP client's session through the load balancer, and the replica that holds it (the start of its id; none on 2026-07-28). */
export interface TeamSession {
  client: Client;
  replica: string;
  /** A tool call's structured content and text, and the confirmation token a dry run's text carries. */
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ structured: Record<string, unknown> & { status?: string; reference?: string }; text: string; token: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A 2025-11-25 session, or with `revision` "2026-07-28" the SDK's client pinned to that revision (no
 * session: any replica answers each request). With `person`, it declares form elicitation and
 * answers the person's question with it (on 2026-07-28 by retrying the call with the answer).
 */
export async function openTeamSession(
  url: string,
  token: string,
  revision: "2025-11-25" | "2026-07-28" = "2025-11-25",
  person?: (message: string) => ElicitResult,
): Promise<TeamSession> {
  const capabilities = person === undefined ? {} : { elicitation: { form: {} } };
  const client = new Client(
    { name: "team-member", version: "0" },
    { capabilities, ...(revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : {}) },
  );
  if (person !== undefined) client.setRequestHandler("elicitation/create", (request) => person(request.params.message));
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  const replica = transport.sessionId?.split(".")[0] ?? "";
  return {
    client,
    replica,
    async call(name, args) {
      // A call whose replica died after answering its headers never gets an answer: give up after 10 s, as a person would.
      const result = await client.callTool({ name, arguments: args }, { timeout: 10_000 });
      const text = (result.content as { text?: string }[]).map((item) => item.text ?? "").join("\n");
      return { structured: (result.structuredContent ?? {}) as Record<string, unknown>, text, token: tokenFromText(text) };
    },
    close: () => client.close().catch(() => {}),
  };
}

/** Sessions through the balancer until there are `perReplica` on each of the replicas named. */
export async function sessionsOnEach(url: string, token: string, replicas: readonly string[], perReplica: number): Promise<TeamSession[]> {
  const kept: TeamSession[] = [];
  for (let opened = 0; replicas.some((replica) => kept.filter((session) => session.replica === replica).length < perReplica); opened += 1) {
    if (opened > 10 * replicas.length * perReplica)
      throw new Error(`the balancer did not spread sessions over ${replicas.join(", ")}: ${kept.map((session) => session.replica).join(", ")}`);
    const session = await openTeamSession(url, token);
    if (kept.filter((other) => other.replica === session.replica).length < perReplica) kept.push(session);
    else await session.close();
  }
  return kept;
}
