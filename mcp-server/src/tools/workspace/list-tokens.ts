import { delimitUntrusted } from "@custody/shared";
import { z } from "zod";
import { UnitView } from "../../views/view-schemas.js";
import { recordView } from "../../views/workspace-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { PageInfo, PageInput, toolOutput } from "../tool-output.js";

/** A token: its name, parent currency, contract and units. */
const TokenView = z.looseObject({ name: z.string(), parent_currency: z.string(), contract_address: z.string(), units: z.array(UnitView) });

export const listTokens = defineTool({
  name: "list_tokens",
  title: "List supported tokens",
  description: "Lists the supported tokens: name, parent currency, contract address, units. One page.",
  toolset: "read",
  input: PageInput,
  output: toolOutput({ tokens: z.array(TokenView), page_info: PageInfo }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const page = await ctx.client.listTokens(args, { signal });
    const tokens = page.edges.map((edge) => edge.node);
    return {
      structured: { tokens: tokens.map((token) => recordView(token) as z.infer<typeof TokenView>), page_info: page.page_info },
      text: [
        `${tokens.length} of ${page.page_info.count} tokens:`,
        ...tokens.map((token) => `${delimitUntrusted("name", token.name)} on ${token.parent_currency} at ${token.contract_address}`),
      ].join("\n"),
    };
  },
});
