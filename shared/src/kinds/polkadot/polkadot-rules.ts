import type { AmountInput } from "../../schemas/amount-input.js";
import { PolkadotStakingType } from "../../schemas/coin-fields-request.js";
import type { PolkadotBalances, PolkadotStaking } from "../../schemas/polkadot-coin-fields.js";
import { BaseUnitsString } from "../../schemas/primitives.js";
import type { TransactionRequest } from "../../schemas/transaction-request.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { unbondingChunks } from "../../dates/polkadot-unlocks.js";
import { durationText, whenText } from "../../dates/duration-text.js";
import { localText } from "../../l10n/translate.js";

export type PolkadotOperation =
  { type: "BONDEXTRA" | "UNBOND" | "REBOND"; amount: bigint } | { type: "WITHDRAWUNBONDED" } | { type: "SETPAYEE"; payee: string };

/**
 * The balance checks the spec asks clients to make before creating a Polkadot staking
 * request (Usage rules, point 4), against the account's coin_fields.
 */
export function checkPolkadotOperation(op: PolkadotOperation, balances: PolkadotBalances, staking: PolkadotStaking, now?: Date): Finding[] {
  switch (op.type) {
    case "BONDEXTRA":
    case "UNBOND":
      return [checkPositive(op.type, op.amount), checkWithinField(op.type, op.amount, balances)];
    case "REBOND":
      return [checkPositive(op.type, op.amount), checkRebond(op.amount, balances)];
    case "WITHDRAWUNBONDED":
      return [checkWithdraw(balances, now)];
    case "SETPAYEE":
      return [checkPayee(op.payee, staking)];
  }
}

function checkPositive(type: string, amount: bigint): Finding {
  if (amount <= 0n) {
    return finding("block", "POLKADOT_AMOUNT_NOT_POSITIVE", localText("{0} amount must be greater than 0 base units, got {1}", type, String(amount)), {
      type,
      amount,
    });
  }
  return finding("info", "POLKADOT_AMOUNT_OK", localText("{0} amount {1} is greater than 0 (base units)", type, String(amount)), { type, amount });
}

/** BONDEXTRA bonds from balances.available; UNBOND moves from balances.bonded. */
const WITHIN_FIELD = {
  BONDEXTRA: { field: "available", verb: "bond" },
  UNBOND: { field: "bonded", verb: "move" },
} as const;

function checkWithinField(type: keyof typeof WITHIN_FIELD, amount: bigint, balances: PolkadotBalances): Finding {
  const { field, verb } = WITHIN_FIELD[type];
  const limit = balances[field];
  const facts = { amount, [field]: limit };
  if (amount > limit) {
    return finding(
      "block",
      `POLKADOT_${type}_EXCEEDS_${field.toUpperCase()}`,
      localText("{0} amount {1} exceeds balances.{2} {3} (base units): {0} can {4} at most the {2} balance", type, String(amount), field, String(limit), verb),
      facts,
    );
  }
  return finding(
    "info",
    `POLKADOT_${type}_OK`,
    localText("{0} amount {1} is within balances.{2} {3} (base units)", type, String(amount), field, String(limit)),
    facts,
  );
}

function checkRebond(amount: bigint, balances: PolkadotBalances): Finding {
  const limit = balances.total_unbonding + balances.total_unbonded;
  const facts = { amount, total_unbonding: balances.total_unbonding, total_unbonded: balances.total_unbonded, limit };
  const sum = `balances.total_unbonding ${balances.total_unbonding} + balances.total_unbonded ${balances.total_unbonded} = ${limit}`;
  if (amount > limit) {
    return finding(
      "block",
      "POLKADOT_REBOND_EXCEEDS_UNBONDING",
      localText("REBOND amount {0} exceeds {1} (base units): REBOND can move back at most the unbonding plus unbonded funds", String(amount), sum),
      facts,
    );
  }
  return finding("info", "POLKADOT_REBOND_OK", localText("REBOND amount {0} is within {1} (base units)", String(amount), sum), facts);
}

function checkWithdraw(balances: PolkadotBalances, now: Date | undefined): Finding {
  const facts = { total_unbonded: balances.total_unbonded, total_unbonding: balances.total_unbonding };
  if (balances.total_unbonded === 0n) {
    const soonest = now === undefined ? undefined : unbondingChunks(balances, now)[0];
    return finding(
      "block",
      "POLKADOT_WITHDRAW_NOTHING_UNBONDED",
      localText(
        "WITHDRAWUNBONDED with balances.total_unbonded 0 would do nothing, yet the transaction would still be created and need approval{0}",
        stillUnbonding(balances, now),
      ),
      { ...facts, ...(soonest === undefined ? {} : { allowed_at: soonest.unlocks_at.toISOString() }) },
    );
  }
  return finding(
    "info",
    "POLKADOT_WITHDRAW_OK",
    localText("WITHDRAWUNBONDED will move balances.total_unbonded {0} (base units) to available", String(balances.total_unbonded)),
    facts,
  );
}

function stillUnbonding(balances: PolkadotBalances, now: Date | undefined): string {
  if (balances.total_unbonding === 0n) return "";
  const chunks = unbondingChunks(balances, now ?? new Date(0));
  const first = chunks[0];
  const soonest =
    first === undefined
      ? ""
      : now === undefined
        ? `; the soonest unbonds in ${durationText(first.waiting_time_seconds)}`
        : `; the soonest (${first.amount} base units) unbonds at ${whenText(first.unlocks_at, now)}, when this withdrawal is allowed`;
  return ` (balances.total_unbonding ${balances.total_unbonding} base units are still in the 28-day unbonding period${soonest})`;
}

function checkPayee(payee: string, staking: PolkadotStaking): Finding {
  const current = staking.rewards_destination;
  const facts = { payee, rewards_destination: current };
  const wanted = payee.trim();
  if (wanted === "") {
    return finding(
      "block",
      "POLKADOT_PAYEE_EMPTY",
      localText("SETPAYEE payee must name a rewards destination (e.g. Staked, Stash), got an empty string"),
      facts,
    );
  }
  if (wanted.toLowerCase() === current.trim().toLowerCase()) {
    const how = wanted === current ? "equals" : "differs only in letter case or spacing from";
    return finding(
      "block",
      "POLKADOT_PAYEE_UNCHANGED",
      localText('SETPAYEE payee "{0}" {1} the current staking.rewards_destination "{2}": nothing would change', payee, how, current),
      facts,
    );
  }
  return finding("info", "POLKADOT_PAYEE_OK", localText('SETPAYEE payee "{0}" differs from staking.rewards_destination "{1}"', payee, current), facts);
}

/**
 * The fixed values of a Polkadot staking request (Usage rules, point 2): recipient "",
 * speed CUSTOM, max_fees "0"; amount null for SETPAYEE and WITHDRAWUNBONDED, base units
 * otherwise. A request that is not a Polkadot staking request yields no findings.
 */
export function checkPolkadotFixedValues(request: TransactionRequest): Finding[] {
  const coinFields = request.coin_fields;
  if (coinFields === undefined || !("type" in coinFields)) return [];
  const parsed = PolkadotStakingType.safeParse(coinFields.type);
  if (!parsed.success) return [];
  const type = parsed.data;
  return [
    checkRecipient(type, request.recipient),
    checkSpeed(type, request.speed),
    checkMaxFees(type, request.max_fees),
    type === "SETPAYEE" || type === "WITHDRAWUNBONDED" ? checkNullAmount(type, request.amount) : checkBaseUnitAmount(type, request.amount),
  ];
}

function checkRecipient(type: PolkadotStakingType, recipient: string): Finding {
  if (recipient !== "") {
    return finding(
      "block",
      "POLKADOT_RECIPIENT_NOT_EMPTY",
      localText('recipient must be "" for a Polkadot {0} request, got {1}', type, JSON.stringify(recipient)),
      {
        type,
        recipient,
      },
    );
  }
  return finding("info", "POLKADOT_RECIPIENT_OK", localText('recipient is "" as a Polkadot {0} request requires', type), { type, recipient });
}

function checkSpeed(type: PolkadotStakingType, speed: string): Finding {
  if (speed !== "CUSTOM") {
    return finding("block", "POLKADOT_SPEED_NOT_CUSTOM", localText("speed must be CUSTOM for a Polkadot {0} request, got {1}", type, speed), { type, speed });
  }
  return finding("info", "POLKADOT_SPEED_OK", localText("speed is CUSTOM as a Polkadot {0} request requires", type), { type, speed });
}

/** The value of an amount input: the plain string, or the object's value. */
function valueOf(input: AmountInput): string | number | null {
  return typeof input === "string" ? input : input.value;
}

function show(input: AmountInput): string {
  return typeof input === "string" ? JSON.stringify(input) : `{ value: ${JSON.stringify(input.value)}, unit: ${JSON.stringify(input.unit)} }`;
}

function isZero(value: string | number | null): boolean {
  return value === "0" || value === 0;
}

function checkMaxFees(type: PolkadotStakingType, maxFees: AmountInput): Finding {
  const facts = { type, max_fees: show(maxFees) };
  if (!isZero(valueOf(maxFees))) {
    return finding(
      "block",
      "POLKADOT_MAX_FEES_NOT_ZERO",
      localText('max_fees must have the value "0" for a Polkadot {0} request, got {1}', type, show(maxFees)),
      facts,
    );
  }
  return finding("info", "POLKADOT_MAX_FEES_OK", localText('max_fees has the value "0" as a Polkadot {0} request requires', type), facts);
}

function checkNullAmount(type: PolkadotStakingType, amount: AmountInput): Finding {
  const value = valueOf(amount);
  const facts = { type, amount: show(amount) };
  if (value === null) {
    return finding("info", "POLKADOT_AMOUNT_NULL_OK", localText("amount has the value null as a Polkadot {0} request requires", type), facts);
  }
  if (isZero(value)) {
    return finding(
      "warn",
      "POLKADOT_AMOUNT_ZERO_NOT_NULL",
      localText(
        "amount of a Polkadot {0} request should be an amount object with value null, got {1}; zero moves nothing, but the spec's form is null",
        type,
        show(amount),
      ),
      facts,
    );
  }
  return finding(
    "block",
    "POLKADOT_AMOUNT_NOT_NULL",
    localText("amount of a Polkadot {0} request must be an amount object with value null, got {1}: {0} takes no amount", type, show(amount)),
    facts,
  );
}

function checkBaseUnitAmount(type: PolkadotStakingType, amount: AmountInput): Finding {
  const value = valueOf(amount);
  const facts = { type, amount: show(amount) };
  if (value === null || !BaseUnitsString.safeParse(value).success) {
    return finding(
      "block",
      "POLKADOT_AMOUNT_NOT_BASE_UNITS",
      localText("amount of a Polkadot {0} request must be a whole number of base units (digits only), got {1}", type, show(amount)),
      facts,
    );
  }
  return finding("info", "POLKADOT_AMOUNT_BASE_UNITS_OK", localText("amount {0} of a Polkadot {1} request is in base units", show(amount), type), facts);
}
