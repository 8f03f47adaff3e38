import { z } from "zod";
import { pageOf } from "./primitives.js";

export const CurrencyUnit = z.looseObject({
  code: z.string().min(1),
  magnitude: z.int().min(0).max(77),
});
export type CurrencyUnit = z.infer<typeof CurrencyUnit>;

export const CurrencyUnits = z
  .array(CurrencyUnit)
  .min(1, { message: "must list at least one unit" })
  .superRefine((units, ctx) => {
    const codes = new Set<string>();
    for (const unit of units) {
      if (codes.has(unit.code)) ctx.addIssue({ code: "custom", message: `unit code ${unit.code} appears twice` });
      codes.add(unit.code);
    }
    if (!units.some((unit) => unit.magnitude === 0)) {
      ctx.addIssue({ code: "custom", message: "must include the base unit (magnitude 0)" });
    }
  });

/** GET /currencies/{currency}. The unit at index 1 is the display unit. */
export const Currency = z.looseObject({
  name: z.string().min(1),
  units: CurrencyUnits,
});
export type Currency = z.infer<typeof Currency>;

/** An element of GET /currencies/tokens. */
export const Token = z.looseObject({
  name: z.string().min(1),
  parent_currency: z.string().min(1),
  contract_address: z.string().min(1),
  units: CurrencyUnits,
});
export type Token = z.infer<typeof Token>;

export const TokenPage = pageOf(Token);
export type TokenPage = z.infer<typeof TokenPage>;
