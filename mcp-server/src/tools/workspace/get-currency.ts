import { displayUnit, boundedText, INPUT_LIMITS } from "@custody/shared";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { UnitView } from "../../views/view-schemas.js";
import { toolOutput } from "../tool-output.js";

export const getCurrency = defineTool({
  name: "get_currency",
  title: "Get a currency's units",
  description: "A currency's units (code, magnitude) and display unit: the unit codes an amount may be given in.",
  toolset: "read",
  input: { currency: boundedText(INPUT_LIMITS.currency).describe("Currency identifier, as on the account") },
  output: toolOutput({ currency: z.object({ name: z.string(), units: z.array(UnitView) }), display_unit: z.string() }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const currency = await ctx.client.getCurrency(args.currency, { signal });
    const units = currency.units.map((unit) => ({ code: unit.code, magnitude: unit.magnitude }));
    return {
      structured: { currency: { name: currency.name, units }, display_unit: displayUnit(currency).code },
      text: `${currency.name}: ${units.map((unit) => `${unit.code} (10^${unit.magnitude} base units)`).join(", ")}; display unit ${displayUnit(currency).code}`,
    };
  },
});
