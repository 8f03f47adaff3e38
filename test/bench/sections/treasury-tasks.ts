import { tokenFromText } from "@custody/mcp-server";
import { countingAsk, TREASURY_TASKS, type Ask, type TaskOperator, type TaskWorkspace } from "../../../mcp-server/test/harness/treasury-tasks.js";
import type { Figure, Section } from "../support/bench-report.js";
import { ratio } from "../support/latency-stats.js";
import type { StdioRpcSession } from "../support/stdio-rpc-session.js";

export const TREASURY_TASKS_TITLE = "Treasury tasks";

export interface TreasuryTasksInput {
  /** A custody server over stdio on a fresh demo workspace for each operator the tasks act as. */
  sessions: Record<TaskOperator, StdioRpcSession>;
  /** The emulator's control plane. */
  controlUrl: string;
}

/** A tool call over the session, read as the assistant reads it. */
function askOver(session: StdioRpcSession): Ask {
  return async (tool, args = {}) => {
    const answer = await session.request("tools/call", { name: tool, arguments: args });
    const text = ((answer.result.content ?? []) as { text?: string }[]).map((item) => item.text ?? "").join("\n");
    return {
      structured: (answer.result.structuredContent ?? {}) as Record<string, unknown>,
      text,
      isError: answer.result.isError === true,
      token: tokenFromText(text),
    };
  };
}

function controlOver(controlUrl: string): TaskWorkspace {
  return {
    async control(method, path, body) {
      const response = await fetch(`${controlUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
      return text === "" ? null : JSON.parse(text);
    },
  };
}

/**
 * The treasury tasks of the treasury-tasks test (the same scenario definitions), one after another
 * on one demo workspace: per task, the tool calls the assistant made and the tokens it read (text
 * and structuredContent, bytes / 4, as the test counts them), beside the bound where it sets one.
 */
export async function measureTreasuryTasks(input: TreasuryTasksInput): Promise<Section> {
  const workspace = controlOver(input.controlUrl);
  const rows: { task: string; operator: string; calls: number; tokens: number; target: string; met: boolean | null }[] = [];
  const figures: Figure[] = [];
  for (const task of TREASURY_TASKS) {
    const { ask, tally } = countingAsk(askOver(input.sessions[task.operator]));
    await task.run(ask, workspace);
    const tokens = Math.round(tally.tokens);
    const met = task.target === undefined ? null : tally.calls <= task.target.calls && tally.tokens <= task.target.tokens;
    const target = task.target === undefined ? "" : `<= ${task.target.calls} calls, <= ${task.target.tokens.toLocaleString("en-US")} tokens`;
    rows.push({ task: task.task, operator: task.operator, calls: tally.calls, tokens, target, met });
    if (task.target !== undefined) {
      figures.push({
        measure: `${task.task}: tokens read (${tally.calls} call${tally.calls === 1 ? "" : "s"})`,
        value: tokens,
        unit: "tokens",
        baseline: "the issue's bound (fixed figure)",
        baselineValue: task.target.tokens,
        ratio: ratio(tokens, task.target.tokens),
        target,
        meetsTarget: met,
      });
    }
  }
  return {
    title: TREASURY_TASKS_TITLE,
    figures,
    details: { tasks: rows },
    table: {
      headers: ["Task", "Operator", "Tool calls", "Tokens read (text + structuredContent, bytes / 4)", "Bound"],
      rows: rows.map((row) => [
        row.task,
        row.operator,
        row.calls,
        row.tokens,
        row.target === "" ? "" : `${row.target}: ${row.met === true ? "met" : "**missed**"}`,
      ]),
    },
  };
}
