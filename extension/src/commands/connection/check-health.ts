import { checkModuleVersion } from "@custody/shared";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";
import { notify } from "../../output/notify.js";

/** GET /_health, with the module version checked against the latest supported. */
export const checkHealth: CommandDefinition = {
  id: "custody.checkHealth",
  async run(services: Services) {
    const { client, target } = services.connection.require();
    const health = await client.health();
    const findings = checkModuleVersion(health.module_version);
    const worst = findings.find((item) => item.severity !== "info") ?? findings[0];
    const message = (
      `Custody: ${client.baseUrl} answers ${health.status} for ${target.operator}: module ` +
      `${health.module_version}, API ${health.api_version}. ${worst?.message ?? ""}`
    ).trim();
    services.output.info(message);
    void notify(worst && worst.severity !== "info" ? "warning" : "info", message);
  },
};
