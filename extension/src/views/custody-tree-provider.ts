import * as vscode from "vscode";
import type { Connection } from "../connection/connection.js";
import type { OutputLog } from "../output/output-log.js";
import { ErrorNode } from "./nodes/error-node.js";
import { ReadCache } from "./read-cache.js";
import type { TreeNode } from "./tree-node.js";
import type { ViewContext } from "./view-context.js";

/**
 * The part every view shares: nothing while not connected (the welcome view shows), a fresh
 * cache per refresh, and an error node in place of any list whose read fails.
 */
export abstract class CustodyTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  #view: ViewContext | undefined;

  constructor(
    protected readonly connection: Connection,
    private readonly output: OutputLog,
    /** What the view lists, for error messages: "accounts". */
    private readonly what: string,
  ) {}

  /** Reads everything again. */
  refresh(): void {
    this.#view = undefined;
    this.#changed.fire(undefined);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.treeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const state = this.connection.state;
    if (state.kind !== "connected") return [];
    if (this.#view?.cache.client !== state.client) {
      const view: ViewContext = {
        cache: new ReadCache(state.client),
        refresh: (target) => {
          if (this.#view === view) this.#changed.fire(target);
        },
      };
      this.#view = view;
    }
    const view = this.#view;
    try {
      return node ? await node.children() : await this.roots(view);
    } catch (error) {
      this.output.error(vscode.l10n.t("Loading {0}", this.what), error);
      return [new ErrorNode(this.what, error)];
    }
  }

  /** The top-level nodes, read through the view's cache. */
  protected abstract roots(view: ViewContext): Promise<TreeNode[]>;

  dispose(): void {
    this.#changed.dispose();
  }
}
