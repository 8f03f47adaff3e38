import { checkModuleVersion, delimitUntrusted } from "@custody/shared";
import { z } from "zod";
import { checkViews } from "../../views/check-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { Entity, toolOutput } from "../tool-output.js";

export const healthCheck = defineTool({
  name: "health_check",
  title: "Check the connection",
  description: "Checks that the workspace answers and knows this operator. Use first when calls fail. Returns the module and API versions and whether the module version is supported.",
  toolset: "read",
  input: {},
  output: toolOutput({ status: z.string(), operator: z.string(), module_version: z.string(), api_version: z.string(), checks: z.array(Entity) }),
  annotations: READ_HINTS,
  async run(_args, { ctx, signal }) {
    const health = await ctx.client.health({ signal });
    const checks = checkModuleVersion(health.module_version);
    const warnings = checks.filter((check) => check.severity !== "info").map((check) => ` ${delimitUntrusted(`checks.${check.code}`, check.message)}`);
    return {
      structured: { status: health.status, operator: ctx.operator, module_version: health.module_version, api_version: health.api_version, checks: checkViews(checks) },
      text: `Connected as ${ctx.operator}: ${health.status}, module ${health.module_version}, API ${health.api_version}.${warnings.join("")}`,
    };
  },
});
