import * as vscode from "vscode";
import { INPUT_LIMITS, writeToolQuery } from "@custody/shared";
import { toolPermitted, trustedWindow } from "../permission-check.js";
import type { Services } from "../../services.js";
import { stepTitle, type CommandDefinition } from "../command-definition.js";
import { operatorProblem } from "../../connection/settings-rules.js";
import { notify } from "../../output/notify.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CREATE = writeToolQuery({ tool: "create_operator", toolset: "operators" });
const REGISTER = writeToolQuery({ tool: "register_operator", toolset: "operators" });
/** The steps' title, translated when shown. */
const title = (): string => vscode.l10n.t("Register an API Operator");

/**
 * The spec's registration: POST /api_users creates the operator and its device id; an
 * administrator invites it in the workspace application, which issues a UUID; then
 * POST /api_users/{name}/register/{uuid} files the Create user request for approval.
 */
export const registerOperator: CommandDefinition = {
  id: "custody.registerOperator",
  async run(services: Services) {
    const { client, target } = services.connection.require();
    const { prompter, output, audit } = services;
    if (!trustedWindow(services, REGISTER.name)) return;
    const mode = await prompter.pick(stepTitle(title(), 1, 3), [
      { label: vscode.l10n.t("Create a new API operator, then register it"), value: "create" as const },
      { label: vscode.l10n.t("Register an operator created earlier"), description: vscode.l10n.t("I have its invitation UUID"), value: "register" as const },
    ]);
    if (mode === undefined) return;
    const name = await prompter.input({
      title: stepTitle(title(), 2, 3),
      prompt: vscode.l10n.t("Operator name (no spaces; the same name the administrator will invite)"),
      limit: { field: "operator", max: INPUT_LIMITS.operator_name },
      validate: operatorProblem,
    });
    if (name === undefined) return;
    const base = { operator: target.operator, request_digest: null };
    if (mode === "create") {
      if (!toolPermitted(services, CREATE)) return;
      const go = await prompter.confirm({
        message: vscode.l10n.t("Create the API operator {0}?", name.trim()),
        detail: vscode.l10n.t("{0} at {1}", "POST /api_users", client.baseUrl) + `\n{"name":${JSON.stringify(name.trim())}}`,
        action: vscode.l10n.t("Create"),
      });
      if (!go) return;
      try {
        const created = await client.createApiUser(name.trim());
        await audit.record({
          ...base,
          tool: CREATE.name,
          event: "submitted",
          request: { name: created.name },
          details: { name: created.name, role: created.role },
        });
        output.info(
          vscode.l10n.t(
            "Operator {0} created in workspace {1}: device id {2} (role {3}, type {4})",
            created.name,
            created.workspace,
            created.device_id,
            created.role,
            created.type_,
          ),
        );
        const copyDeviceId = vscode.l10n.t("Copy Device ID");
        const copy = await notify(
          "info",
          vscode.l10n.t(
            "Custody: operator {0} created. An administrator must now invite {0} in the workspace application with the device id {1}; it will issue a UUID.",
            created.name,
            created.device_id,
          ),
          copyDeviceId,
        );
        if (copy === copyDeviceId) await vscode.env.clipboard.writeText(created.device_id);
      } catch (error) {
        await audit.recordFailure({ operator: target.operator, tool: CREATE.name, request: { name: name.trim() } }, error);
        throw error;
      }
    }
    if (!toolPermitted(services, REGISTER)) return;
    const uuid = await prompter.input({
      title: stepTitle(title(), 3, 3),
      limit: { field: "uuid", max: INPUT_LIMITS.uuid },
      prompt: vscode.l10n.t("Invitation UUID issued by the workspace application (Escape to register later)"),
      validate: (text) => (UUID.test(text.trim()) ? undefined : "uuid: must be a UUID such as 123e4567-e89b-12d3-a456-426614174000"),
    });
    if (uuid === undefined) return;
    try {
      const result = await client.registerApiUser(name.trim(), uuid.trim());
      await audit.record({
        ...base,
        tool: REGISTER.name,
        event: result.success ? "submitted" : "failed",
        request: { name: name.trim() },
        details: { name: name.trim(), success: result.success },
      });
      const message = result.success
        ? vscode.l10n.t("Custody: {0} is registered; administrators must now approve its Create user request before it can use the API.", name.trim())
        : vscode.l10n.t("Custody: the module did not accept the registration of {0}.", name.trim());
      output.info(message);
      void notify(result.success ? "info" : "error", message);
    } catch (error) {
      // The invitation UUID is a one-time registration credential: never in the audit log.
      await audit.recordFailure({ operator: target.operator, tool: REGISTER.name, request: { name: name.trim() } }, error, [uuid.trim()]);
      throw error;
    }
  },
};
