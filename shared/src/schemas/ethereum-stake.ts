import { z } from "zod";
import { BaseUnitsString, pageOf, Timestamp } from "./primitives.js";

export const EthereumStakeStatus = z.enum(["PENDING", "ACTIVE", "EXITING", "EXITED"]);
export type EthereumStakeStatus = z.infer<typeof EthereumStakeStatus>;

/** A position of GET /ethereum/accounts/{id}/stakes; the shape is the emulator's (spec: not shown). */
export const EthereumStake = z.looseObject({
  id: z.string().min(1),
  account_id: z.int(),
  account_name: z.string(),
  currency: z.string(),
  provider: z.string(),
  contract_address: z.string(),
  amount: BaseUnitsString,
  total_reward: BaseUnitsString,
  status: EthereumStakeStatus,
  transaction_id: z.int(),
  created_on: Timestamp,
  activation_date: Timestamp.nullable(),
});
export type EthereumStake = z.infer<typeof EthereumStake>;

export const EthereumStakePage = pageOf(EthereumStake);
export type EthereumStakePage = z.infer<typeof EthereumStakePage>;
