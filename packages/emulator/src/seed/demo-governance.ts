import type { AccountGovernance, GovernanceRule, RuleMember } from "@custody/shared";
import { BEACON_DEPOSIT_CONTRACT, FIGMENT_DEPOSIT_CONTRACT, KILN_DEPOSIT_CONTRACT, USDC_CONTRACT } from "./demo-addresses.js";

export const TREASURY_BOT = "treasury-bot";
export const STAKING_BOT = "staking-bot";
export const REPORTING_BOT = "reporting-bot";

const api = (username: string): RuleMember => ({ username, is_api: true });
const human = (username: string): RuleMember => ({ username, is_api: false });

/** Operators alone satisfy it: transactions are APPROVED at creation. */
const operatorsOnly: GovernanceRule = {
  creators: [api(TREASURY_BOT), api(STAKING_BOT)],
  steps: [{ quorum: 1, approvers: [api(TREASURY_BOT), api(STAKING_BOT)] }],
};

/** A second step of human approvers: transactions wait in PENDING_APPROVAL. */
const withHumans: GovernanceRule = {
  creators: [api(TREASURY_BOT)],
  steps: [
    { quorum: 1, approvers: [api(TREASURY_BOT)] },
    { quorum: 1, approvers: [human("dana.approver"), human("erin.approver")] },
  ],
};

const stakingByBot: GovernanceRule = { creators: [api(STAKING_BOT)], steps: [{ quorum: 1, approvers: [api(STAKING_BOT)] }] };

export const DEMO_GOVERNANCE: Record<string, AccountGovernance> = {
  "sol-treasury": { transaction: operatorsOnly, staking: stakingByBot, smart_contract: null },
  "sol-cold": { transaction: withHumans, staking: null, smart_contract: null },
  "dot-staking": { transaction: operatorsOnly, staking: null, smart_contract: null },
  "dot-vault": { transaction: withHumans, staking: null, smart_contract: null },
  "eth-staking": {
    transaction: operatorsOnly,
    staking: null,
    smart_contract: { ...stakingByBot, whitelist: [KILN_DEPOSIT_CONTRACT, FIGMENT_DEPOSIT_CONTRACT, BEACON_DEPOSIT_CONTRACT] },
  },
  "eth-ops": {
    transaction: withHumans,
    staking: null,
    smart_contract: {
      creators: [api(TREASURY_BOT)],
      steps: [
        { quorum: 1, approvers: [api(TREASURY_BOT)] },
        { quorum: 2, approvers: [human("dana.approver"), human("erin.approver"), human("alice.admin")] },
      ],
      whitelist: [USDC_CONTRACT],
    },
  },
};
