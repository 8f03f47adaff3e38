import { DEMO } from "./demo-workspace.js";

// The treasury tasks (issues 14 and 21) as an assistant runs them on the demo workspace: the calls
// it makes, one definition for the treasury-tasks test (through a real MCP client) and for
// `pnpm bench` (through the built server over stdio), which each count the calls and the tokens.

/** A tool's answer as an assistant reads it. */
export interface TaskAnswer {
  structured: Record<string, unknown>;
  text: string;
  isError: boolean;
  token?: string | undefined;
}

/** One tool call of the task's operator. */
export type Ask = (tool: string, args?: Record<string, unknown>) => Promise<TaskAnswer>;

/** What a task may do outside the assistant's calls: the emulator's control plane (faults, invitations). */
export interface TaskWorkspace {
  control(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<unknown>;
}

export type TaskOperator = typeof DEMO.treasuryBot | typeof DEMO.stakingBot;

export interface TreasuryTask {
  task: string;
  operator: TaskOperator;
  /** The bound, when it sets one. */
  target?: { calls: number; tokens: number };
  run(ask: Ask, workspace: TaskWorkspace): Promise<void>;
}

/** An answer's size as the issues count it: its text and structuredContent together, bytes / 4. */
export function answerTokens(answer: Pick<TaskAnswer, "structured" | "text">): number {
  return (Buffer.byteLength(answer.text, "utf8") + Buffer.byteLength(JSON.stringify(answer.structured), "utf8")) / 4;
}

/** An Ask that counts the calls made through it and the tokens of their answers. */
export function countingAsk(ask: Ask): { ask: Ask; tally: { calls: number; tokens: number } } {
  const tally = { calls: 0, tokens: 0 };
  return {
    tally,
    ask: async (tool, args) => {
      const answer = await ask(tool, args);
      tally.calls += 1;
      tally.tokens += answerTokens(answer);
      return answer;
    },
  };
}

const OUTSIDE_SOLANA = "AtkYQZi27Cz6jNKdnG3wxES37ou6r31UKwFYzF8J8upk";

/** The confirmation token of a dry run, or an error naming what it answered. */
function tokenOf(answer: TaskAnswer, what: string): string {
  if (answer.token === undefined) throw new Error(`${what}: the dry run gave no confirmation token: ${answer.text.slice(0, 300)}`);
  return answer.token;
}

function expectStatus(answer: TaskAnswer, status: string, what: string): void {
  if (answer.structured.status !== status)
    throw new Error(`${what}: expected ${status}, got ${String(answer.structured.status)}: ${answer.text.slice(0, 300)}`);
}

/** A dry run and its confirmation: two calls. */
async function dryRunAndConfirm(ask: Ask, tool: string, args: Record<string, unknown>): Promise<TaskAnswer> {
  const dry = await ask(tool, args);
  return ask(tool, { ...args, confirmation_token: tokenOf(dry, tool) });
}

/** A task an assistant answers with one read. */
function oneCall(task: string, operator: TaskOperator, tool: string, target?: TreasuryTask["target"]): TreasuryTask {
  return {
    task,
    operator,
    ...(target === undefined ? {} : { target }),
    run: async (ask) => {
      await ask(tool, {});
    },
  };
}

export const TREASURY_TASKS: readonly TreasuryTask[] = [
  oneCall("what we hold: staked, available, withdrawable, unlocking", DEMO.treasuryBot, "get_holdings"),
  oneCall("what waits for approval, and who must act", DEMO.stakingBot, "list_pending_approvals"),
  {
    task: "pay 0.25 SOL from sol-treasury",
    operator: DEMO.treasuryBot,
    run: async (ask) => {
      expectStatus(
        await dryRunAndConfirm(ask, "create_transaction", {
          account: DEMO.solTreasury,
          recipient: OUTSIDE_SOLANA,
          amount: "0.25",
          unit: "SOL",
          note: "Invoice 2211",
        }),
        "submitted",
        "send",
      );
    },
  },
  {
    task: "deactivate a stake, and when can it be withdrawn",
    operator: DEMO.stakingBot,
    run: async (ask) => {
      const listed = await ask("list_solana_stakes", { account: DEMO.solTreasury });
      const active = (listed.structured.stakes as { uid: string; blockchain_state: { status: string } }[] | undefined)?.find(
        (stake) => stake.blockchain_state.status === "activated",
      );
      if (active === undefined) throw new Error(`no activated stake listed: ${listed.text.slice(0, 300)}`);
      expectStatus(await dryRunAndConfirm(ask, "solana_deactivate_stake", { account: DEMO.solTreasury, stake_uid: active.uid }), "submitted", "deactivation");
    },
  },
  {
    task: "unbond 250 DOT if we keep 3,000 bonded",
    operator: DEMO.treasuryBot,
    run: async (ask) => {
      expectStatus(await ask("polkadot_unbond", { account: DEMO.dotStaking, amount: "250", unit: "DOT" }), "dry_run", "unbond");
    },
  },
  {
    task: "stake 32 ETH: which contract, where the deposit data comes from",
    operator: DEMO.stakingBot,
    run: async (ask) => {
      expectStatus(
        await ask("ethereum_stake", { account: DEMO.ethStaking, contract: DEMO.kilnContract, contract_data: "0x12", amount: "32", unit: "ETH" }),
        "blocked",
        "ethereum stake",
      );
    },
  },
  oneCall("who can act on each account", DEMO.treasuryBot, "health_check"),
  {
    task: "honest mistakes: a near-miss name, an absurd unit",
    operator: DEMO.treasuryBot,
    run: async (ask) => {
      const named = await ask("get_holdings", { account: "sol treasury" });
      if (!named.isError) throw new Error("a near-miss account name was answered as an account");
      await ask("create_transaction", { account: DEMO.solCold, recipient: OUTSIDE_SOLANA, amount: "1500000000", unit: "SOL" });
    },
  },
  {
    task: "a lost answer: was it applied?",
    operator: DEMO.treasuryBot,
    run: async (ask, workspace) => {
      const args = { account: DEMO.solTreasury, recipient: OUTSIDE_SOLANA, amount: "0.125", unit: "SOL" };
      const dry = await ask("create_transaction", args);
      // The POST is dropped before the service handles it: nobody can know whether it was applied.
      await workspace.control("PUT", "/faults", { drop_rate: 1, methods: ["POST"], path_prefix: "/transactions", remaining: 1 });
      expectStatus(await ask("create_transaction", { ...args, confirmation_token: tokenOf(dry, "lost send") }), "uncertain", "lost send");
      await ask("search_transactions", { label: dry.structured.reference as string });
    },
  },
  {
    task: "register an operator",
    operator: DEMO.treasuryBot,
    run: async (ask, workspace) => {
      const created = await ask("create_operator", { name: "payout-bot" });
      const deviceId = (created.structured.api_user as { device_id?: string } | undefined)?.device_id;
      if (deviceId === undefined) throw new Error(`create_operator gave no device_id: ${created.text.slice(0, 300)}`);
      const invitation = (await workspace.control("POST", "/invitations", { username: "payout-bot", device_id: deviceId })) as { uuid: string };
      await ask("register_operator", { name: "payout-bot", uuid: invitation.uuid });
    },
  },
  oneCall("what moved since yesterday, and is anything stuck or uncertain", DEMO.treasuryBot, "list_activity", { calls: 3, tokens: 2500 }),
];
