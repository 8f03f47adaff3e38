import { z } from "zod";
import { HexString } from "./primitives.js";

export const SendCoinFields = z.looseObject({ type: z.literal("SEND") });

export const PolkadotStakingType = z.enum(["BONDEXTRA", "UNBOND", "REBOND", "WITHDRAWUNBONDED", "SETPAYEE"]);
export type PolkadotStakingType = z.infer<typeof PolkadotStakingType>;

export const PolkadotAmountCoinFields = z.looseObject({
  type: z.enum(["BONDEXTRA", "UNBOND", "REBOND", "WITHDRAWUNBONDED"]),
});

/**
 * The rewards destinations SETPAYEE accepts: Polkadot's RewardDestination variants, spelled as the
 * service writes them (the spec shows Staked and Stash). The one list for the builders, the
 * schemas and the emulator.
 */
export const REWARDS_DESTINATIONS = ["Staked", "Stash", "Controller", "Account", "None"] as const;
export type RewardsDestinationName = (typeof REWARDS_DESTINATIONS)[number];

export const REWARDS_DESTINATION_RULE = `must be one of ${REWARDS_DESTINATIONS.join(", ")} (spelled so)`;

export function isRewardsDestination(value: unknown): value is RewardsDestinationName {
  return typeof value === "string" && (REWARDS_DESTINATIONS as readonly string[]).includes(value);
}

function shown(input: unknown): string {
  if (typeof input === "string") return JSON.stringify(input);
  if (typeof input === "object" && input !== null) return Array.isArray(input) ? "an array" : "an object";
  return String(input);
}

// A string, then a refinement: a wrong name is reported at coin_fields.payee alone (a failed
// refinement does not abort, so the union keeps that variant's issue rather than listing them all).
export const RewardsDestination = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? `required for SETPAYEE: the new rewards destination, one of ${REWARDS_DESTINATIONS.join(", ")} (spelled so)`
        : `${REWARDS_DESTINATION_RULE}, got ${shown(issue.input)}`,
  })
  .refine((value): boolean => isRewardsDestination(value), { error: (issue) => `${REWARDS_DESTINATION_RULE}, got ${shown(issue.input)}` });

export const SetPayeeCoinFields = z.looseObject({
  type: z.literal("SETPAYEE"),
  payee: RewardsDestination,
});

/**
 * Optional ABI-style inputs; their exact names are not in the spec, these are the emulator's. The
 * ABI is taken as its JSON text or as the JSON array itself, the two forms tools hand it out in.
 */
export const ContractAbiInputs = z.looseObject({
  abi: z.union([z.string(), z.array(z.looseObject({}))], { error: "must be the contract ABI: its JSON text, or its array of entries" }).optional(),
  function_name: z.string().optional(),
  arguments: z.array(z.looseObject({ name: z.string(), type: z.string().optional(), value: z.string() })).optional(),
});

export const ContractInteractionCoinFields = z.looseObject({
  contract_interaction: ContractAbiInputs.extend({ contract_data: HexString }),
});

export const ContractDeploymentCoinFields = z.looseObject({
  contract_deployment: z.looseObject({}),
});

const TypedCoinFields = z.discriminatedUnion("type", [SendCoinFields, PolkadotAmountCoinFields, SetPayeeCoinFields]);

/** `coin_fields` of a transaction request: every variant of the spec. */
export const CoinFieldsRequest = z.union([TypedCoinFields, ContractInteractionCoinFields, ContractDeploymentCoinFields], {
  error: (issue) => {
    const input = issue.input;
    if (input && typeof input === "object" && "smart_contract" in input) {
      return "coin_fields.smart_contract was renamed coin_fields.contract_interaction (release of Jul 2023)";
    }
    return (
      'must be one of {type: "SEND"}, {type: "BONDEXTRA"|"UNBOND"|"REBOND"|"WITHDRAWUNBONDED"}, ' +
      '{type: "SETPAYEE", payee: string}, {contract_interaction: {contract_data: hex string}} or {contract_deployment: {...}}'
    );
  },
});
export type CoinFieldsRequest = z.infer<typeof CoinFieldsRequest>;
