import { depositWithdrawalAddress } from "./beacon-deposit-call.js";
import type { Destination } from "../kit/write-spec.js";

/**
 * Where a contract call sends funds: the contract it pays and, for a deposit whose withdrawal
 * credentials name an address, that address, which gets the 32 ETH back (shown, since it is
 * otherwise visible only inside the call data's hex).
 */
export function contractCallDestinations(contract: string, contractData: string): [Destination, ...Destination[]] {
  const withdrawals = depositWithdrawalAddress(contractData);
  return [{ role: "contract", value: contract }, ...(withdrawals === undefined ? [] : [{ role: "withdrawals" as const, value: withdrawals }])];
}
