import fc from "fast-check";
import { SolanaStakeList, TransactionPage } from "@custody/shared";
import { describe, it } from "vitest";
import { externalEthereum, externalPolkadot, externalSolana } from "../src/seed/demo-addresses.js";
import { checkLedger, newLedgerModel, type LedgerModel } from "./support/ledger-invariants.js";
import { DOT, ETH, OP_A, SOL, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

type Cmd = fc.AsyncCommand<LedgerModel, Workspace>;

/** Every command is always allowed: the emulator must refuse what cannot be done, and the ledger must hold after each. */
abstract class Step implements Cmd {
  check(): boolean {
    return true;
  }
  abstract act(w: Workspace): Promise<unknown>;
  async run(model: LedgerModel, w: Workspace): Promise<void> {
    await this.act(w);
    await checkLedger(w, model);
  }
  abstract toString(): string;
}

class Send extends Step {
  constructor(
    readonly account: string,
    readonly internal: boolean,
    readonly amount: bigint,
    readonly unit: bigint,
  ) {
    super();
  }
  act(w: Workspace) {
    const solana = this.account.startsWith("sol");
    const ethereum = this.account.startsWith("eth");
    const recipient = this.internal
      ? (w.addresses[
          solana ? (this.account === "sol-auto" ? "sol-human" : "sol-auto") : ethereum ? (this.account === "eth-auto" ? "eth-small" : "eth-auto") : "dot-auto"
        ] ?? "")
      : solana
        ? externalSolana("out")
        : ethereum
          ? externalEthereum("out")
          : externalPolkadot("out");
    const maxFees = solana ? "7500" : ethereum ? "3000000000000000" : "30000000";
    return w.api(OP_A).post("/transactions", {
      account_name: this.account,
      amount: ((this.amount * this.unit) / 10n).toString(),
      max_fees: maxFees,
      recipient,
      speed: "NORMAL",
    });
  }
  toString() {
    return `Send(${this.account}, ${this.internal ? "internal" : "external"}, ${this.amount}/10 unit)`;
  }
}

class Polkadot extends Step {
  constructor(
    readonly type: string,
    readonly tenths: bigint,
  ) {
    super();
  }
  act(w: Workspace) {
    const amount = this.type === "WITHDRAWUNBONDED" || this.type === "SETPAYEE" ? null : ((this.tenths * DOT * 100n) / 10n).toString();
    const coinFields = this.type === "SETPAYEE" ? { type: this.type, payee: this.tenths % 2n === 0n ? "Stash" : "Staked" } : { type: this.type };
    return w.api(OP_A).post("/transactions", {
      account_name: "dot-auto",
      amount: { value: amount, unit: "planck" },
      max_fees: { value: "0", unit: "planck" },
      recipient: "",
      speed: "CUSTOM",
      coin_fields: coinFields,
    });
  }
  toString() {
    return `Polkadot(${this.type}, ${this.tenths}0 DOT)`;
  }
}

class CreateStake extends Step {
  constructor(readonly tenths: bigint) {
    super();
  }
  act(w: Workspace) {
    return w
      .api(OP_A)
      .post(`/solana/accounts/${w.ids["sol-auto"]}/stakes`, { amount: ((this.tenths * SOL * 10n) / 10n).toString(), validator: externalSolana("validator") });
  }
  toString() {
    return `CreateStake(${this.tenths} SOL)`;
  }
}

class StakeAction extends Step {
  constructor(
    readonly pick: number,
    readonly action: string,
    readonly tenths: bigint,
  ) {
    super();
  }
  async act(w: Workspace) {
    const stakes = decode(SolanaStakeList, await w.api(OP_A).get(`/solana/accounts/${w.ids["sol-auto"]}/stakes`));
    const stake = stakes[this.pick % Math.max(1, stakes.length)];
    if (!stake) return undefined;
    const body =
      this.action === "delegate"
        ? { validator: externalSolana("validator-2") }
        : this.action.startsWith("split")
          ? { amount: ((this.tenths * SOL) / 10n).toString() }
          : undefined;
    return w.api(OP_A).post(`/solana/accounts/${w.ids["sol-auto"]}/stakes/${stake.uid}/actions/${this.action}`, body);
  }
  toString() {
    return `StakeAction(#${this.pick}, ${this.action}, ${this.tenths}/10 SOL)`;
  }
}

class Advance extends Step {
  constructor(readonly body: { seconds?: number; epochs?: number }) {
    super();
  }
  act(w: Workspace) {
    return w.control.post("/clock/advance", this.body);
  }
  toString() {
    return `Advance(${JSON.stringify(this.body)})`;
  }
}

class HumanDecision extends Step {
  constructor(readonly approve: boolean) {
    super();
  }
  async act(w: Workspace) {
    const pending = decode(TransactionPage, await w.api(OP_A).get(`/transactions?status=PENDING_APPROVAL&account_id=${w.ids["sol-human"]}`));
    const oldest = pending.edges.at(-1)?.node;
    if (!oldest) return undefined;
    return w.control.post(`/transactions/${oldest.id}/${this.approve ? "approve" : "reject"}`, { username: "dana.approver" });
  }
  toString() {
    return `HumanDecision(${this.approve ? "approve" : "reject"})`;
  }
}

const accounts = fc.constantFrom("sol-auto", "sol-human", "sol-nostaking", "dot-auto", "eth-auto", "eth-small");
const unitOf = (account: string) => (account.startsWith("sol") ? SOL : account.startsWith("eth") ? ETH : DOT);

const commands = [
  fc
    .tuple(accounts, fc.boolean(), fc.bigInt({ min: 1n, max: 1200n }))
    .map(([account, internal, amount]) => new Send(account, internal, amount, unitOf(account))),
  fc
    .tuple(fc.constantFrom("BONDEXTRA", "UNBOND", "REBOND", "WITHDRAWUNBONDED", "SETPAYEE"), fc.bigInt({ min: 1n, max: 12n }))
    .map(([type, tenths]) => new Polkadot(type, tenths)),
  fc.bigInt({ min: 1n, max: 120n }).map((tenths) => new CreateStake(tenths)),
  fc
    .tuple(fc.nat(5), fc.constantFrom("deactivate", "withdraw", "delegate", "split", "split_deactivate"), fc.bigInt({ min: 1n, max: 80n }))
    .map(([pick, action, tenths]) => new StakeAction(pick, action, tenths)),
  fc.oneof(
    fc.integer({ min: 1, max: 40 * 86_400 }).map((seconds) => new Advance({ seconds })),
    fc.integer({ min: 1, max: 3 }).map((epochs) => new Advance({ epochs })),
  ),
  fc.boolean().map((approve) => new HumanDecision(approve)),
];

describe("ledger property (fast-check, model-based)", () => {
  it(
    "random sequences of operations conserve value (balances + stakes + fees + outflows = " +
      "inflows + rewards) and pay rewards only for epochs a stake was in effect",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
          const w = await standardWorkspace({ epochSeconds: 86_400 });
          try {
            const model = newLedgerModel(
              new Map([
                ["solana_testnet", 210n * SOL],
                ["polkadot", 1000n * DOT],
                ["ethereum", 50n * ETH],
              ]),
            );
            await checkLedger(w, model);
            await fc.asyncModelRun(() => ({ model, real: w }), cmds);
          } finally {
            await w.close();
          }
        }),
        {
          numRuns: 30,
          // Always tried: stakes deactivated in the epoch they were activating in (once straight away, once after a
          // re-delegation, once split off), then an epoch start: they were never in effect, so they must earn nothing.
          examples: [
            [[new CreateStake(50n), new StakeAction(0, "deactivate", 1n), new Advance({ epochs: 1 })]],
            [
              [
                new CreateStake(50n),
                new StakeAction(0, "deactivate", 1n),
                new StakeAction(0, "delegate", 1n),
                new StakeAction(0, "deactivate", 1n),
                new Advance({ epochs: 2 }),
              ],
            ],
            [[new CreateStake(80n), new StakeAction(0, "split_deactivate", 30n), new Advance({ epochs: 1 })]],
          ],
        },
      );
    },
    120_000,
  );
});
