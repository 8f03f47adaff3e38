import { listedToolQuery, toolPermission, errorMessage } from "@custody/shared";
import type { z } from "zod";
import { strictInput } from "./strict-input.js";
import type { AnyTool, ToolDefinition } from "./tool-definition.js";
import type { ToolCall } from "../server/tool-call.js";
import { toolError, toolResult } from "../server/tool-result.js";

/** A tool's answer: its structured content typed by the tool's output schema (listed as its outputSchema), and its text. */
export interface ToolAnswer<Output extends z.ZodObject = z.ZodObject> {
  structured: z.input<Output>;
  text: string;
  /** The answer reports a failure the caller must act on (a refused operator), with its structure. */
  isError?: boolean;
}

export type SimpleToolSpec<Shape extends z.ZodRawShape, Output extends z.ZodObject> = Omit<ToolDefinition<Shape>, "handle" | "input" | "output"> & {
  /** The tool's fields; no others are accepted. */
  input: Shape;
  output: Output;
  run(args: z.output<z.ZodObject<Shape>>, call: ToolCall): Promise<ToolAnswer<Output>>;
};

/** The local policy's refusal of this tool, or null. Asked by every handler: hiding a tool is not enforcing. */
export function permissionRefusal(call: Pick<ToolCall, "ctx" | "person">, tool: Pick<AnyTool, "name" | "toolset" | "annotations">): string | null {
  const verdict = toolPermission(call.ctx.policy, listedToolQuery(tool), call.person);
  return verdict.allowed ? null : `${tool.name} refused: ${verdict.reason}`;
}

/** A tool that is not a guarded write: policy check, then its answer, any failure as an error result. */
export function defineTool<Shape extends z.ZodRawShape, Output extends z.ZodObject>(spec: SimpleToolSpec<Shape, Output>): AnyTool {
  const { run, input, ...definition } = spec;
  const tool: ToolDefinition<Shape> = {
    ...definition,
    input: strictInput(spec.name, input),
    async handle(args, call) {
      const refusal = permissionRefusal(call, tool);
      if (refusal) return toolError(refusal);
      try {
        const answer = await run(args, call);
        return toolResult(answer.structured as Record<string, unknown>, answer.text, answer.isError === true);
      } catch (error) {
        return toolError(errorMessage(error));
      }
    },
  };
  return tool as unknown as AnyTool;
}
