import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";

export const showOutput: CommandDefinition = {
  id: "custody.showOutput",
  run(services: Services) {
    services.output.show();
    return Promise.resolve();
  },
};
