import { CustodyClient, DEFAULT_POLICY, grantFor, limitSetsFor, type PlanContext, type Policy } from "@custody/shared";
import { afterAll, beforeAll } from "vitest";
import { startEmulator } from "@custody/emulator";

export type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

/** The demo workspace in memory, on a free loopback port, with fast processing. */
export function startDemoEmulator(): Promise<RunningEmulator> {
  return startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10 });
}

export function clientFor(emulator: RunningEmulator, operator: string): CustodyClient {
  return new CustodyClient({ baseUrl: emulator.baseUrl, operator, timeoutMs: 5000, retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 50 } });
}

export function planContext(client: CustodyClient, policy: Policy = DEFAULT_POLICY, spent = 0n): PlanContext {
  return {
    client,
    operator: client.operator,
    policy,
    role: null,
    person: null,
    limitSets: () => Promise.resolve(limitSetsFor(policy, grantFor(policy, null), client.operator)),
    spentLast24h: () => spent,
  };
}

/** A call to the emulator's control plane. */
export async function control(emulator: RunningEmulator, method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`control ${method} ${path}: HTTP ${response.status} ${text}`);
  return text === "" ? null : JSON.parse(text);
}

/** The demo emulator for a test file's tests, with clients of the two demo operators: started before them, closed after. */
export function demoForFile(): { emulator: () => RunningEmulator; treasury: () => CustodyClient; staking: () => CustodyClient } {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startDemoEmulator();
  });
  afterAll(async () => {
    await emulator?.close();
  });
  const running = () => {
    if (emulator === undefined) throw new Error("the demo emulator is started in beforeAll");
    return emulator;
  };
  return { emulator: running, treasury: () => clientFor(running(), "treasury-bot"), staking: () => clientFor(running(), "staking-bot") };
}
