import type { Services } from "../../services.js";
import type { ViewName } from "../../views/view-registry.js";
import type { CommandDefinition } from "../command-definition.js";

export const refreshAll: CommandDefinition = {
  id: "custody.refresh",
  run(services: Services) {
    services.refreshAll();
    return Promise.resolve();
  },
};

function refreshView(id: string, name: ViewName): CommandDefinition {
  return {
    id,
    run(services: Services) {
      services.views.refresh(name);
      return Promise.resolve();
    },
  };
}

export const refreshAccounts = refreshView("custody.refreshAccounts", "accounts");
export const refreshStakes = refreshView("custody.refreshStakes", "stakes");
export const refreshTransactions = refreshView("custody.refreshTransactions", "transactions");
