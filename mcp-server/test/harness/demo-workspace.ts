import { CustodyClient, encodeDepositCall, type Account } from "@custody/shared";
import type { RunningEmulator } from "@custody/emulator";

/** The demo seed's names, as the emulator's demo workspace defines them. */
export const DEMO = {
  treasuryBot: "treasury-bot",
  stakingBot: "staking-bot",
  solTreasury: "sol-treasury",
  solCold: "sol-cold",
  dotStaking: "dot-staking",
  dotVault: "dot-vault",
  ethStaking: "eth-staking",
  ethOps: "eth-ops",
  kilnContract: "0x1e68238cE926DEC62b3FBC99AB06eB1D85CE0270",
  usdcContract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
} as const;

/** One validator's deposit call withdrawing to `withdrawTo` (the beacon deposit contract's shape, made-up key, signature and root). */
export function depositCallData(withdrawTo: string): string {
  const address = withdrawTo.replace(/^0x/, "").toLowerCase();
  return encodeDepositCall({
    pubkey: "b1".repeat(48),
    withdrawal_credentials: `01${"00".repeat(11)}${address}`,
    signature: "d3".repeat(96),
    deposit_data_root: "e4".repeat(32),
  });
}

/** A deposit call whose withdrawals go back to the named account's own address (eth-staking unless named). */
export async function ownDepositCallData(emulator: RunningEmulator, account: string = DEMO.ethStaking): Promise<string> {
  return depositCallData((await accountNamed(emulator, account)).address);
}

/** A client as one operator, to read state the way the test needs it (not through the tools). */
export function directClient(emulator: RunningEmulator, operator: string = DEMO.treasuryBot): CustodyClient {
  return new CustodyClient({ baseUrl: emulator.baseUrl, operator });
}

export async function accountNamed(emulator: RunningEmulator, name: string): Promise<Account> {
  const accounts = await directClient(emulator).listAllAccounts();
  const account = accounts.find((candidate) => candidate.name === name);
  if (!account) throw new Error(`the demo workspace has no account ${name}`);
  return account;
}

/** Transactions whose notes carry this text (a correlation reference): how many writes really happened. */
export async function transactionsWithLabel(emulator: RunningEmulator, label: string): Promise<number[]> {
  const found = await directClient(emulator).searchAllTransactions({ label });
  return found.map((transaction) => transaction.id);
}
