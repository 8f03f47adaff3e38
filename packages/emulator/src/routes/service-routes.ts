import { RouteTable } from "../http/route-def.js";
import { addAccountRoutes } from "./account-routes.js";
import { addApiUserRoutes } from "./api-user-routes.js";
import { addCurrencyRoutes } from "./currency-routes.js";
import { addEthereumRoutes } from "./ethereum-routes.js";
import { addHealthRoutes } from "./health-routes.js";
import { addRequestRoutes } from "./request-routes.js";
import { addSolanaRoutes } from "./solana-routes.js";
import { addTransactionRoutes } from "./transaction-routes.js";
import { addUserRoutes } from "./user-routes.js";

/** Every endpoint of the service, below the base path. */
export function serviceRoutes(): RouteTable {
  const routes = new RouteTable("active");
  addHealthRoutes(routes);
  addApiUserRoutes(routes);
  addUserRoutes(routes);
  addAccountRoutes(routes);
  addCurrencyRoutes(routes);
  addTransactionRoutes(routes);
  addRequestRoutes(routes);
  addSolanaRoutes(routes);
  addEthereumRoutes(routes);
  return routes;
}
