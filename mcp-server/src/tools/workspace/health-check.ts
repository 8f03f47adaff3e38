import { checkModuleVersion, CustodyApiError, finding, type Finding } from "@custody/shared";
import { z } from "zod";
import type { ServerContext } from "../../server/server-context.js";
import { checkViews, describeChecks } from "../../views/check-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { Entity, toolOutput } from "../tool-output.js";

/**
 * /_health proves the module knows the operator, not that the workspace lets it act (a suspended
 * operator passes it): one authenticated read tells.
 */
async function operatorAccess(ctx: ServerContext, signal: AbortSignal): Promise<Finding> {
  const facts = { operator: ctx.operator };
  try {
    await ctx.client.listAccounts({ page: 1, page_size: 1 }, { signal });
    return finding("info", "OPERATOR_CAN_READ", `the workspace answers ${ctx.operator}'s reads (GET /accounts)`, facts);
  } catch (error) {
    if (!(error instanceof CustodyApiError)) throw error;
    return finding("block", "OPERATOR_REFUSED", `the module knows ${ctx.operator}, but the workspace refused its read of GET /accounts: ${error.message}`, { ...facts, status: error.status });
  }
}

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
    const checks = [...checkModuleVersion(health.module_version), await operatorAccess(ctx, signal)];
    const attention = describeChecks(checks);
    return {
      structured: { status: health.status, operator: ctx.operator, module_version: health.module_version, api_version: health.api_version, checks: checkViews(checks) },
      text: `Connected as ${ctx.operator}: ${health.status}, module ${health.module_version}, API ${health.api_version}.${attention === "" ? "" : `\n${attention}`}`,
    };
  },
});
