import { checkModuleVersion, CustodyApiError, delimitUntrusted, finding, operatorRoles, sanitizeUntrustedText, type Account, type Finding } from "@custody/shared";
import { z } from "zod";
import type { ServerContext } from "../../server/server-context.js";
import { CheckView, checkViews, describeChecks } from "../../views/check-view.js";
import { AccountRef } from "../../views/view-schemas.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

/** How many accounts' rules the check reads: enough for a workspace's working set, bounded for a large one. */
const ACCOUNTS_READ = 100;

/**
 * /_health proves the module knows the operator, not that the workspace lets it act (a suspended
 * operator passes it): one authenticated read tells, and it brings the accounts whose rules say
 * what the operator may do on each.
 */
async function operatorAccess(ctx: ServerContext, signal: AbortSignal): Promise<{ check: Finding; accounts: Account[]; total: number }> {
  const facts = { operator: ctx.operator };
  try {
    const page = await ctx.client.listAccounts({ page: 1, page_size: ACCOUNTS_READ }, { signal });
    const check = finding("info", "OPERATOR_CAN_READ", `the workspace answers ${ctx.operator}'s reads (GET /accounts)`, facts);
    return { check, accounts: page.edges.map((edge) => edge.node), total: page.page_info.count };
  } catch (error) {
    if (!(error instanceof CustodyApiError)) throw error;
    const check = finding("block", "OPERATOR_REFUSED", `the module knows ${ctx.operator}, but the workspace refused its read of GET /accounts: ${error.message}`, { ...facts, status: error.status });
    return { check, accounts: [], total: 0 };
  }
}

/** In which rules of an account the operator creates or approves. */
const Permission = z.object({ account: AccountRef, creates: z.array(z.string()), approves: z.array(z.string()) });
type Permission = z.infer<typeof Permission>;

function permissionsOf(accounts: readonly Account[], operator: string): Permission[] {
  return accounts.map((account) => {
    const roles = account.governance_rules ? operatorRoles(account.governance_rules, operator) : { creates: [], approves: [] };
    return { account: { id: account.id, name: sanitizeUntrustedText(account.name) }, ...roles };
  });
}

function permissionLine({ account, creates, approves }: Permission, source: Account | undefined): string {
  const roles = [creates.length > 0 ? `creates under ${creates.join(", ")}` : "", approves.length > 0 ? `approves under ${approves.join(", ")}` : ""].filter((part) => part !== "");
  const rules = source?.governance_rules ? (roles.join("; ") || "in none of its rules") : "rules not reported";
  return `${delimitUntrusted("name", source?.name ?? account.name)} (${account.id}): ${rules}`;
}

export const healthCheck = defineTool({
  name: "health_check",
  title: "Check the connection",
  description: "Checks the workspace knows this operator, the module version, and in which rules of each account it creates or approves. Use first.",
  toolset: "read",
  input: {},
  output: toolOutput({ status: z.string(), operator: z.string(), module_version: z.string(), api_version: z.string(), checks: z.array(CheckView), permissions: z.array(Permission) }),
  annotations: READ_HINTS,
  async run(_args, { ctx, signal }) {
    const health = await ctx.client.health({ signal });
    const access = await operatorAccess(ctx, signal);
    const checks = [...checkModuleVersion(health.module_version), access.check];
    const permissions = permissionsOf(access.accounts, ctx.operator);
    const attention = describeChecks(checks);
    const beyond = access.total > access.accounts.length ? [`(the first ${access.accounts.length} of ${access.total} accounts; get_account shows any other's rules)`] : [];
    const lines = permissions.map((permission, index) => permissionLine(permission, access.accounts[index]));
    return {
      structured: { status: health.status, operator: ctx.operator, module_version: health.module_version, api_version: health.api_version, checks: checkViews(checks), permissions },
      text: [
        `Connected as ${ctx.operator} (this server acts as this one operator): ${health.status}, module ${health.module_version}, API ${health.api_version}.`,
        ...(attention === "" ? [] : [attention]),
        ...(lines.length === 0 ? [] : [`What ${ctx.operator} may do:`, ...lines, ...beyond]),
      ].join("\n"),
    };
  },
});
