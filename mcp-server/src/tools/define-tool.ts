import { toolPermission } from "@custody/shared";
import type { z } from "zod";
import { errorMessage } from "./error-message.js";
import { strictInput } from "./strict-input.js";
import type { AnyTool, ToolCall, ToolDefinition } from "./tool-definition.js";
import { toolError, toolResult } from "./tool-result.js";

export interface ToolAnswer {
  structured: Record<string, unknown>;
  text: string;
  /** The answer reports a failure the caller must act on (a refused operator), with its structure. */
  isError?: boolean;
}

export type SimpleToolSpec<Shape extends z.ZodRawShape> = Omit<ToolDefinition<Shape>, "handle" | "input"> & {
  /** The tool's fields; no others are accepted. */
  input: Shape;
  run(args: z.output<z.ZodObject<Shape>>, call: ToolCall): Promise<ToolAnswer>;
};

/** The local policy's refusal of this tool, or null. Asked by every handler: hiding a tool is not enforcing. */
export function permissionRefusal(call: Pick<ToolCall, "ctx" | "person">, tool: Pick<AnyTool, "name" | "toolset" | "annotations">): string | null {
  const verdict = toolPermission(call.ctx.policy, { name: tool.name, toolset: tool.toolset, readOnly: tool.annotations.readOnlyHint }, call.person);
  return verdict.allowed ? null : `${tool.name} refused: ${verdict.reason}`;
}

/** A tool that is not a guarded write: policy check, then its answer, any failure as an error result. */
export function defineTool<Shape extends z.ZodRawShape>(spec: SimpleToolSpec<Shape>): AnyTool {
  const { run, input, ...definition } = spec;
  const tool: ToolDefinition<Shape> = {
    ...definition,
    input: strictInput(spec.name, input),
    async handle(args, call) {
      const refusal = permissionRefusal(call, tool);
      if (refusal) return toolError(refusal);
      try {
        const answer = await run(args, call);
        return toolResult(answer.structured, answer.text, answer.isError === true);
      } catch (error) {
        return toolError(errorMessage(error));
      }
    },
  };
  return tool as unknown as AnyTool;
}
