import type { ReadCache } from "./read-cache.js";
import type { TreeNode } from "./tree-node.js";

/** What the nodes of one refresh of a view share: its reads, and a way to redraw a node. */
export interface ViewContext {
  readonly cache: ReadCache;
  /** Redraws the node's children, or the whole view when no node is given. */
  refresh(node?: TreeNode): void;
}
