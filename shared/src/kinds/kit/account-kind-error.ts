import { CustodyError } from "../../client/errors.js";
import { accountNetwork, type Account, type Network } from "../../schemas/account.js";
import { delimitUntrusted } from "../../untrusted/untrusted-text.js";

/** "a Solana", "an Ethereum": the article goes by the sound of the first network's name. */
function withArticle(networks: readonly Network[]): string {
  const list = networks.length <= 1 ? networks.join("") : `${networks.slice(0, -1).join(", ")} or ${networks[networks.length - 1]}`;
  return `${/^[AEIOU]/i.test(list) ? "an" : "a"} ${list}`;
}

/** The named account is on a network the operation does not apply to. */
export class AccountKindError extends CustodyError {
  constructor(account: Pick<Account, "id" | "name" | "type">, operation: string, networks: readonly Network[]) {
    super(
      `account: ${operation} needs ${withArticle(networks)} account; ` +
        `${delimitUntrusted("account.name", account.name)} (id ${account.id}) is ` +
        `${delimitUntrusted("account.type", account.type)}`,
    );
  }
}

/** Refuses an account that is not on the network the operation needs. */
export function requireNetwork(account: Pick<Account, "id" | "name" | "type" | "coin_fields">, operation: string, network: Network): void {
  if (accountNetwork(account) !== network) throw new AccountKindError(account, operation, [network]);
}
