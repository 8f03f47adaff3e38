import { tokenFromText } from "@custody/mcp-server";
import type { Figure, Section } from "../support/bench-report.js";
import { ratio } from "../support/latency-stats.js";
import type { StdioRpcSession } from "../support/stdio-rpc-session.js";

/** The issue's measure before it: a dry run cost 900 to 1,160 tokens (the lower end is the reference). */
export const DRY_RUN_TOKENS_BEFORE = 900;
export const DRY_RUN_TARGET = 500;
export const SUBMISSION_TARGET = 250;

export interface AnswerSizesInput {
  /** A custody server over stdio on the demo workspace, as treasury-bot. */
  session: StdioRpcSession;
  /** Accounts and an address of the demo workspace. */
  solTreasury: string;
  solCold: string;
  dotStaking: string;
  recipient: string;
}

interface Measured {
  tool: string;
  what: string;
  tokens: number;
  text: string;
}

/** An answer as the issue counts it: its text and its structuredContent together, bytes / 4. */
async function measure(session: StdioRpcSession, tool: string, what: string, args: Record<string, unknown>): Promise<Measured> {
  const answer = await session.request("tools/call", { name: tool, arguments: args });
  const text = ((answer.result.content ?? []) as { text?: string }[]).map((item) => item.text ?? "").join("\n");
  const bytes = Buffer.byteLength(text, "utf8") + Buffer.byteLength(JSON.stringify(answer.result.structuredContent ?? {}), "utf8");
  return { tool, what, tokens: Math.round(bytes / 4), text };
}

/** A submission against its target, beside the dry run it refers to. */
function submissionFigure(measure: string, answer: Measured, dry: Measured): Figure {
  return {
    measure,
    value: answer.tokens,
    unit: "tokens",
    baseline: "its dry run (same run)",
    baselineValue: dry.tokens,
    ratio: ratio(answer.tokens, dry.tokens),
    target: `<= ${SUBMISSION_TARGET} tokens`,
    meetsTarget: answer.tokens <= SUBMISSION_TARGET,
  };
}

/** The answers an assistant reads on the issue's treasury tasks, sized as the issue counts them. */
export async function measureAnswerSizes(input: AnswerSizesInput): Promise<Section> {
  const { session } = input;
  const send = { account: input.solTreasury, recipient: input.recipient, amount: "1.5", unit: "SOL", note: "Payroll April" };
  const dry = await measure(session, "create_transaction", "plain send, dry run", send);
  const token = tokenFromText(dry.text);
  if (token === undefined) throw new Error(`the dry run gave no token: ${dry.text}`);
  const submitted = await measure(session, "create_transaction", "plain send, submission (broadcast)", { ...send, confirmation_token: token });
  const pendingSend = { account: input.solCold, recipient: input.recipient, amount: "2", unit: "SOL" };
  const pendingDry = await measure(session, "create_transaction", "send under a human step, dry run", pendingSend);
  const pending = await measure(session, "create_transaction", "send under a human step, submission (pending)", {
    ...pendingSend,
    confirmation_token: tokenFromText(pendingDry.text),
  });
  const rows: Measured[] = [
    dry,
    submitted,
    pendingDry,
    pending,
    await measure(session, "polkadot_unbond", "unbond 250 DOT, dry run", { account: input.dotStaking, amount: "250", unit: "DOT" }),
    await measure(session, "list_pending_approvals", "every transaction waiting", {}),
    await measure(session, "list_activity", "what moved in the last 24 hours, stuck or uncertain", {}),
    await measure(session, "get_holdings", "every account", {}),
    await measure(session, "get_holdings", "one Polkadot account", { account: input.dotStaking }),
    await measure(session, "list_users", "without key material", {}),
    await measure(session, "list_users", "with key material (include_keys)", { include_keys: true }),
    await measure(session, "health_check", "with what the operator may do", {}),
  ];
  const tokenCount = `${dry.text}`.split(token).length - 1;
  const figures: Figure[] = [
    {
      measure: "plain send, dry run (text + structuredContent)",
      value: dry.tokens,
      unit: "tokens",
      baseline: "the issue's measure before it (fixed figure)",
      baselineValue: DRY_RUN_TOKENS_BEFORE,
      ratio: ratio(dry.tokens, DRY_RUN_TOKENS_BEFORE),
      target: `<= ${DRY_RUN_TARGET} tokens`,
      meetsTarget: dry.tokens <= DRY_RUN_TARGET,
      note: `confirmation token ${tokenCount === 1 ? "once" : `${tokenCount} times`}`,
    },
    submissionFigure("plain send, submission", submitted, dry),
    submissionFigure("send pending approval, submission", pending, pendingDry),
  ];
  return {
    title: "Answer sizes",
    figures,
    details: { answers: rows.map(({ tool, what, tokens }) => ({ tool, what, tokens })) },
    table: { headers: ["Tool", "Answer", "Tokens (text + structuredContent, bytes / 4)"], rows: rows.map((row) => [row.tool, row.what, row.tokens]) },
  };
}
