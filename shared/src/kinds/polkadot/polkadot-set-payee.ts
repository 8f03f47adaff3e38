import { z } from "zod";
import { boundedText, INPUT_LIMITS } from "../../schemas/input-limits.js";
import { buildSetPayeeRequest } from "./polkadot-staking-requests.js";
import { isRewardsDestination } from "../../schemas/coin-fields-request.js";
import type { TransactionRequest } from "../../schemas/transaction-request.js";
import { withInputFieldNames } from "../kit/input-field-names.js";
import { WriteNote } from "../kit/write-note.js";
import { planPolkadotStaking, type PolkadotBodyInput } from "./polkadot-staking-write.js";
import { ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const PolkadotSetPayeeRequest = z.object({
  kind: z.literal("polkadot_set_payee"),
  ...ON_ACCOUNT,
  payee: boundedText(INPUT_LIMITS.payee).min(1),
  note: WriteNote.optional(),
});

/** The builder names the payee by its place in the body; the write request names it payee. */
const BUILDER_FIELDS = { "coin_fields.payee": "payee" };

/**
 * The body of a SETPAYEE. A destination the request schema refuses is blocked by
 * checkRewardsDestination, naming the allowed ones; its body is shown as it would be, never sent.
 */
function setPayeeBody(input: PolkadotBodyInput, payee: string): TransactionRequest {
  if (isRewardsDestination(payee)) return withInputFieldNames(BUILDER_FIELDS, () => buildSetPayeeRequest({ ...input, payee }));
  return { ...buildSetPayeeRequest({ ...input, payee: "Staked" }), coin_fields: { type: "SETPAYEE", payee } };
}

/** SETPAYEE: changes where staking rewards go. */
export const polkadotSetPayeeWrite = defineWrite({
  kind: "polkadot_set_payee",
  identity: WRITE_IDENTITIES.polkadot_set_payee,
  schema: PolkadotSetPayeeRequest,
  target: "account",
  amountFields: [],
  plan: (ctx, request, reference) =>
    planPolkadotStaking(ctx, request, reference, {
      title: "polkadot set payee",
      operation: { type: "SETPAYEE", payee: request.payee },
      draws: null,
      build: (input) => setPayeeBody(input, request.payee),
      summary: (account) =>
        localText("set the rewards destination of {0} from {1} to {2}", account.name, account.coin_fields.staking.rewards_destination, request.payee),
    }),
});
