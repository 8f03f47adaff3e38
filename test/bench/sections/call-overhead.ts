import type { CustodyClient } from "@custody/shared";
import type { Figure, Section } from "../support/bench-report.js";
import { percentile, ratio, roundMs, timed } from "../support/latency-stats.js";
import type { StdioRpcSession } from "../support/stdio-rpc-session.js";

export interface CallOverheadInput {
  /** A custody server over stdio, on the same workspace as `client`. */
  session: StdioRpcSession;
  client: CustodyClient;
  accountId: number;
  accountName: string;
  calls: number;
}

/** Runs the two calls in alternating blocks, so that drift on a shared machine hits both alike. */
async function alternate(calls: number, first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<[number[], number[]]> {
  const a: number[] = [];
  const b: number[] = [];
  const block = 25;
  for (let done = 0; done < calls; done += block) {
    for (let index = 0; index < block && done + index < calls; index += 1) a.push(await timed(first));
    for (let index = 0; index < block && done + index < calls; index += 1) b.push(await timed(second));
  }
  return [a, b];
}

/** get_account through MCP over stdio, against the same GET made with shared's CustodyClient. */
export async function measureCallOverhead(input: CallOverheadInput): Promise<Section> {
  const { session, client } = input;
  const viaMcp = async (account: number | string) => {
    const answer = await session.request("tools/call", { name: "get_account", arguments: { account } });
    if (answer.result.isError === true) throw new Error(`get_account failed: ${JSON.stringify(answer.result.content)}`);
  };
  const direct = () => client.getAccount(input.accountId);
  const directByName = async () => {
    const accounts = await client.listAllAccounts({ pageSize: 1000, maxPages: 1000 });
    if (!accounts.some((account) => account.name === input.accountName)) throw new Error(`no account ${input.accountName}`);
  };
  for (let index = 0; index < 30; index += 1) {
    await viaMcp(input.accountId);
    await viaMcp(input.accountName);
    await direct();
    await directByName();
  }
  const [mcpById, directById] = await alternate(input.calls, () => viaMcp(input.accountId), direct);
  const [mcpByName, directName] = await alternate(Math.round(input.calls / 2), () => viaMcp(input.accountName), directByName);
  const row = (measure: string, mcp: number[], baseline: number[], baselineLabel: string, p: number): Figure => {
    const value = roundMs(percentile(mcp, p));
    const base = roundMs(percentile(baseline, p));
    return { measure, value, unit: "ms", baseline: baselineLabel, baselineValue: base, ratio: ratio(value, base), note: `overhead ${roundMs(value - base)} ms` };
  };
  return {
    title: `Per-call overhead (${input.calls} calls each, sequential)`,
    figures: [
      row("get_account by id through MCP over stdio, p50", mcpById, directById, "CustodyClient.getAccount, same emulator", 50),
      row("get_account by id through MCP over stdio, p99", mcpById, directById, "CustodyClient.getAccount, same emulator", 99),
      row("get_account by name through MCP over stdio, p50", mcpByName, directName, "CustodyClient: list accounts, pick the name", 50),
      row("get_account by name through MCP over stdio, p99", mcpByName, directName, "CustodyClient: list accounts, pick the name", 99),
    ],
    details: { calls: input.calls, accountId: input.accountId, accountName: input.accountName },
  };
}
