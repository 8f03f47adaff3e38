import { LoadMoreNode } from "../../views/nodes/load-more-node.js";
import type { Services } from "../../services.js";
import type { CommandDefinition } from "../command-definition.js";

/** Run by a "Load more" node: reads the next page of its list. */
export const loadMore: CommandDefinition = {
  id: "custody.loadMore",
  async run(_services: Services, node) {
    if (node instanceof LoadMoreNode) await node.load();
  },
};
