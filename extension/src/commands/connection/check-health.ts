import * as vscode from "vscode";
import { checkModuleVersion, findingMessage } from "@custody/shared";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { notify } from "../../output/notify.js";
import { translate } from "../../output/translate.js";

/** GET /_health, with the module version checked against the latest supported. */
export const checkHealth: CommandDefinition = {
  id: "custody.checkHealth",
  async run(services: Services) {
    const { client, target } = services.connection.require();
    const health = await client.health();
    const findings = checkModuleVersion(health.module_version);
    const worst = findings.find((item) => item.severity !== "info") ?? findings[0];
    const check = worst === undefined ? "" : findingMessage(worst, translate);
    const answer = vscode.l10n.t(
      "Custody: {0} answers {1} for {2}: module {3}, API {4}. {5}",
      client.baseUrl,
      health.status,
      target.operator,
      health.module_version,
      health.api_version,
      check,
    );
    const message = answer.trim();
    services.output.info(message);
    void notify(worst && worst.severity !== "info" ? "warning" : "info", message);
  },
};
