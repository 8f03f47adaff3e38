import type { EmulatorOptions } from "../../src/index.js";
import { KILN_DEPOSIT_CONTRACT } from "../../src/seed/demo-addresses.js";
import { createAccount, governance, humanRule, operatorsRule, registerOperator, startHarness, type Harness } from "./harness.js";

export const OP_A = "op-a";
export const OP_B = "op-b";
export const SOL = 1_000_000_000n;
export const DOT = 10_000_000_000n;
export const ETH = 1_000_000_000_000_000_000n;

export interface Workspace extends Harness {
  /** Account ids by name. */
  ids: Record<string, number>;
  /** Account addresses by name. */
  addresses: Record<string, string>;
}

/**
 * An empty-seeded emulator with two ACTIVE operators (op-a, op-b) registered through the real
 * flow, and accounts on each network with both governance paths.
 */
export async function standardWorkspace(options: EmulatorOptions = {}): Promise<Workspace> {
  const h = await startHarness(options);
  await registerOperator(h, OP_A);
  await registerOperator(h, OP_B);
  const specs = [
    ["sol-auto", "solana_testnet", 100n * SOL, governance(operatorsRule(OP_A, OP_B), { staking: operatorsRule(OP_A) })],
    ["sol-human", "solana_testnet", 100n * SOL, governance(humanRule(OP_A, "dana.approver", "erin.approver"))],
    ["sol-nostaking", "solana_testnet", 10n * SOL, governance(operatorsRule(OP_A, OP_B))],
    ["dot-auto", "polkadot", 1000n * DOT, governance(operatorsRule(OP_A, OP_B))],
    [
      "eth-auto",
      "ethereum",
      40n * ETH,
      governance(operatorsRule(OP_A, OP_B), { smart_contract: { ...operatorsRule(OP_A, OP_B), whitelist: [KILN_DEPOSIT_CONTRACT] } }),
    ],
    [
      "eth-small",
      "ethereum",
      10n * ETH,
      governance(operatorsRule(OP_A, OP_B), { smart_contract: { ...operatorsRule(OP_A, OP_B), whitelist: [KILN_DEPOSIT_CONTRACT] } }),
    ],
  ] as const;
  const ids: Record<string, number> = {};
  const addresses: Record<string, string> = {};
  for (const [name, currency, balance, rules] of specs) {
    const account = await createAccount(h, name, currency, balance, rules);
    ids[name] = account.id as number;
    addresses[name] = account.address as string;
  }
  return { ...h, ids, addresses };
}
