import { checkModuleVersion, CustodyApiError, finding, UnknownOperatorError, type Account, type Finding, errorMessage } from "@custody/shared";
import { z } from "zod";
import type { ServerContext } from "../../server/server-context.js";
import { CheckView, checkViews, describeChecks } from "../../views/check-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";
import { Permission, permissionLine, permissionsOf } from "./operator-permissions.js";

/** How many accounts' rules the check reads: enough for a workspace's working set, bounded for a large one. */
const ACCOUNTS_READ = 100;

/**
 * The operator's status in the workspace, read from the name of the workspace's refusal: a refused
 * operator cannot read GET /users to see its own record. The names are the service's error names
 * (docs/guard-decisions.md); any other refusal is REFUSED.
 */
const REFUSED_STATUS: Record<string, string> = {
  OperatorSuspended: "SUSPENDED",
  OperatorRevoked: "REVOKED",
  OperatorPendingApproval: "PENDING_APPROVAL",
  OperatorNotRegistered: "NOT_REGISTERED",
};

function refusedStatus(error: CustodyApiError): string {
  const name = typeof error.body === "string" ? undefined : error.body.name;
  return (name === undefined ? undefined : REFUSED_STATUS[name]) ?? "REFUSED";
}

type Access = { check: Finding; accounts: Account[]; total: number; refused: string | null };

/**
 * /_health proves the module knows the operator, not that the workspace lets it act (a suspended
 * operator passes it): one authenticated read tells, and it brings the accounts whose rules say
 * what the operator may do on each.
 */
async function operatorAccess(ctx: ServerContext, signal: AbortSignal): Promise<Access> {
  const facts = { operator: ctx.operator };
  try {
    const page = await ctx.client.listAccounts({ page: 1, page_size: ACCOUNTS_READ }, { signal });
    const check = finding("info", "OPERATOR_CAN_READ", `the workspace answers ${ctx.operator}'s reads (GET /accounts)`, facts);
    return { check, accounts: page.edges.map((edge) => edge.node), total: page.page_info.count, refused: null };
  } catch (error) {
    if (!(error instanceof CustodyApiError)) throw error;
    const status = refusedStatus(error);
    const check = finding(
      "block",
      "OPERATOR_REFUSED",
      `the module knows ${ctx.operator}, but the workspace refused its read of GET /accounts: ${error.message}`,
      { ...facts, status: error.status, operator_status: status },
    );
    return { check, accounts: [], total: 0, refused: status };
  }
}

export const healthCheck = defineTool({
  name: "health_check",
  title: "Check the connection",
  description: "Checks this operator may act, the module version, and each account's rules and other approvers. Use first.",
  toolset: "read",
  input: {},
  output: toolOutput({
    status: z.string(),
    operator: z.string(),
    module_version: z.string().optional(),
    api_version: z.string().optional(),
    checks: z.array(CheckView).optional(),
    permissions: z.array(Permission).optional(),
    /** Why this operator cannot act (its status is not ACTIVE). */
    error: z.string().optional(),
  }),
  annotations: READ_HINTS,
  async run(_args, { ctx, signal }) {
    let health;
    try {
      health = await ctx.client.health({ signal });
    } catch (error) {
      if (!(error instanceof UnknownOperatorError)) throw error;
      const message = errorMessage(error);
      return {
        structured: { status: "UNKNOWN", operator: ctx.operator, error: message },
        text: `Error: ${ctx.operator} cannot act: status UNKNOWN, ${message}.`,
        isError: true,
      };
    }
    const access = await operatorAccess(ctx, signal);
    const checks = [...checkModuleVersion(health.module_version), access.check];
    const versions = { module_version: health.module_version, api_version: health.api_version, checks: checkViews(checks) };
    if (access.refused !== null) {
      const message = `${ctx.operator} cannot act: the workspace reports it ${access.refused}; an administrator must make it ACTIVE before any call succeeds`;
      return {
        structured: { status: access.refused, operator: ctx.operator, ...versions, permissions: [], error: message },
        text: [`Error: ${message} (service ${health.status}, module ${health.module_version}, API ${health.api_version}).`, describeChecks(checks)].join("\n"),
        isError: true,
      };
    }
    const permissions = permissionsOf(access.accounts, ctx.operator);
    const attention = describeChecks(checks);
    const beyond =
      access.total > access.accounts.length ? [`(the first ${access.accounts.length} of ${access.total} accounts; get_account shows any other's rules)`] : [];
    const lines = permissions.map((permission, index) => permissionLine(permission, access.accounts[index]));
    return {
      structured: { status: health.status, operator: ctx.operator, ...versions, permissions },
      text: [
        `Connected as ${ctx.operator} (this server acts as this one operator): ${health.status}, module ${health.module_version}, API ${health.api_version}.`,
        ...(attention === "" ? [] : [attention]),
        ...(lines.length === 0 ? [] : [`What ${ctx.operator} may do:`, ...lines, ...beyond]),
      ].join("\n"),
    };
  },
});
