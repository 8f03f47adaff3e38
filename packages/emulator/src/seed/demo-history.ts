import { parseUnits } from "@custody/shared";
import { createAccount } from "../domain/accounts/create-account.js";
import { deposit } from "../domain/accounts/deposit.js";
import { requireCurrency } from "../domain/lookups.js";
import { changeUserStatus } from "../domain/operators/change-user-status.js";
import { networkFee, proposedMaxFees } from "../networks/fee-schedule.js";
import { externalEthereum, externalPolkadot, externalSolana, KILN_DEPOSIT_CONTRACT } from "./demo-addresses.js";
import { DEMO_GOVERNANCE, REPORTING_BOT, STAKING_BOT, TREASURY_BOT } from "./demo-governance.js";
import { ethereumStakeRequest, polkadotRequest, sendRequest } from "./demo-requests.js";
import { registerOperator } from "./register-operator.js";
import type { SeedDriver } from "./seed-driver.js";

const ACCOUNTS: [name: string, currency: string, funds: string][] = [
  ["sol-treasury", "solana_testnet", "250"],
  ["sol-cold", "solana_testnet", "1200"],
  ["dot-staking", "polkadot", "5000"],
  ["dot-vault", "polkadot", "800"],
  ["eth-staking", "ethereum", "100"],
  ["eth-ops", "ethereum", "12.5"],
];

/** Thirty days of a workspace's life, played through the engine. */
export async function playDemoHistory(d: SeedDriver): Promise<void> {
  const { ctx } = d;
  const units = (text: string, currency: string) => parseUnits(text, requireCurrency(ctx.store, currency));
  const sol = (text: string) => units(text, "solana_testnet");
  const dot = (text: string) => units(text, "polkadot");
  const eth = (text: string) => units(text, "ethereum");
  const solFees = proposedMaxFees(networkFee("Solana", "NORMAL", "send"));
  const ethFees = proposedMaxFees(networkFee("Ethereum", "NORMAL", "send"));
  const dotFees = proposedMaxFees(networkFee("Polkadot", "NORMAL", "send"));

  for (const name of [TREASURY_BOT, STAKING_BOT, REPORTING_BOT, "legacy-bot"]) await registerOperator(ctx, name);
  await ctx.commit((tx) => changeUserStatus(tx, "legacy-bot", "suspend"));
  await ctx.commit((tx) => {
    for (const [name, currency, funds] of ACCOUNTS) {
      const governance = DEMO_GOVERNANCE[name];
      if (!governance) throw new Error(`seed: no governance for ${name}`);
      const account = createAccount(tx, ctx.hsm, { name, currency, governance });
      deposit(tx, account.id, units(funds, currency));
    }
  });

  await d.at(0.2);
  await d.transact(TREASURY_BOT, polkadotRequest("dot-staking", "BONDEXTRA", dot("3000")));
  await d.at(0.5);
  await d.transact(TREASURY_BOT, polkadotRequest("dot-staking", "UNBOND", dot("100")));
  await d.at(1);
  await d.transact(
    TREASURY_BOT,
    sendRequest("sol-treasury", externalSolana("payroll"), sol("12.5"), solFees, { title: "Payroll March", content: "Contractor payment" }),
  );
  await d.at(2);
  const stakeA = await d.createStake(STAKING_BOT, "sol-treasury", sol("50"), externalSolana("validator-a"));
  await d.at(3);
  const stakeB = await d.createStake(STAKING_BOT, "sol-treasury", sol("20"), externalSolana("validator-b"));
  await d.at(4);
  await d.transact(STAKING_BOT, polkadotRequest("dot-staking", "BONDEXTRA", dot("500")));
  await d.at(6);
  await d.transact(
    STAKING_BOT,
    ethereumStakeRequest(
      "eth-staking",
      d.account("eth-staking").address,
      KILN_DEPOSIT_CONTRACT,
      eth("32"),
      proposedMaxFees(networkFee("Ethereum", "NORMAL", "stake")),
    ),
  );
  await d.at(8);
  await d.transact(TREASURY_BOT, polkadotRequest("dot-staking", "UNBOND", dot("200")));
  await d.at(10);
  await d.stakeAction(STAKING_BOT, "sol-treasury", d.stakeOf(stakeB).uid, "deactivate");
  await d.at(12);
  const coldTopUp = await d.transact(
    TREASURY_BOT,
    sendRequest("sol-cold", externalSolana("exchange"), sol("100"), solFees, { title: "Exchange top-up", content: "Liquidity for the trading desk" }),
  );
  await d.approveAsHuman(coldTopUp.id, "dana.approver");
  await d.at(14);
  const gas = await d.transact(
    TREASURY_BOT,
    sendRequest("eth-ops", externalEthereum("gas-float"), eth("2"), ethFees, { title: "Gas float", content: "Refill of the relayer" }),
  );
  await d.approveAsHuman(gas.id, "erin.approver");
  await d.at(15);
  await d.transact(
    TREASURY_BOT,
    sendRequest("dot-vault", externalPolkadot("otc"), dot("50"), dotFees, { title: "OTC settlement", content: "Never approved: expires" }),
  );
  await d.at(20);
  const invoice = await d.transact(
    TREASURY_BOT,
    sendRequest("sol-cold", externalSolana("vendor"), sol("40"), solFees, { title: "Vendor invoice 1142", content: "Duplicate invoice" }),
  );
  await d.rejectAsHuman(invoice.id, "erin.approver");
  await d.at(24);
  await d.stakeAction(STAKING_BOT, "sol-treasury", d.stakeOf(stakeA).uid, "split", { amount: sol("10") });
  await d.at(29);
  await d.transact(
    TREASURY_BOT,
    sendRequest("eth-ops", externalEthereum("auditor"), eth("1.5"), ethFees, { title: "Audit fee", content: "Q3 smart-contract audit" }),
  );
  await d.at(29.5);
  await d.transact(
    TREASURY_BOT,
    sendRequest("sol-cold", externalSolana("market-maker"), sol("5"), solFees, { title: "Market maker refill", content: "Waiting for a human approver" }),
  );
  await d.at(30);
}
