import * as vscode from "vscode";
import { waitingWrites, type FileGuardStore, type WaitingWrite } from "@custody/shared";
import type { Connection } from "../connection/connection.js";
import type { OutputLog } from "../output/output-log.js";
import { ErrorNode } from "./nodes/error-node.js";
import { MessageNode } from "./nodes/message-node.js";
import { WaitingNode } from "./nodes/waiting-node.js";
import type { TreeNode } from "./tree-node.js";
import { WaitingWatch } from "./waiting-watch.js";

/** The most waiting writes listed: the soonest to expire. */
const LIMIT = 100;

type Listing = { writes: WaitingWrite[] } | { error: unknown };

/**
 * "Waiting for you": the writes assistants prepared for this person in person mode (an MCP server
 * sharing the extension's guard store), the connected operator's, read from the store's index of
 * waiting dry runs. Read again whenever the store's waiting entries change, the soonest expires, or
 * a while passes; the count feeds the view's badge even while the view is closed.
 */
export class WaitingProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #counted = new vscode.EventEmitter<number>();
  /** The number of writes waiting, after each read. */
  readonly onDidCountWaiting = this.#counted.event;
  readonly #watch = new WaitingWatch(() => void this.read());
  #listing: Promise<Listing> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly store: () => FileGuardStore,
    private readonly output: OutputLog,
  ) {}

  /** Reads the list again, then redraws the view and its badge (unless a newer read started meanwhile: it does). */
  async read(): Promise<void> {
    const listing = this.#list();
    this.#listing = listing;
    const read = await listing;
    if (this.#listing !== listing) return;
    const writes = "writes" in read ? read.writes : [];
    this.#counted.fire(writes.length);
    this.#watch.expiring(writes.map((write) => write.expires_at));
    this.#changed.fire(undefined);
  }

  /** The writes of the latest read (read now if none was). */
  async writes(): Promise<WaitingWrite[]> {
    const read = await (this.#listing ?? this.#list());
    return "writes" in read ? read.writes : [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.treeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node !== undefined) return [];
    if (this.#listing === undefined) await this.read();
    const read = await (this.#listing ?? this.#list());
    if ("error" in read) return [new ErrorNode(vscode.l10n.t("the writes waiting for you"), read.error)];
    if (read.writes.length === 0) return this.connection.state.kind === "connected" ? [new MessageNode(vscode.l10n.t("No write waits for you"), "check")] : [];
    return read.writes.map((write) => new WaitingNode(write));
  }

  async #list(): Promise<Listing> {
    const state = this.connection.state;
    if (state.kind !== "connected") return { writes: [] };
    try {
      const store = this.store();
      this.#watch.watchDirectory(store.waitingDirectory);
      return { writes: await waitingWrites(store, { operator: state.target.operator, person: null, service: state.client.baseUrl }, LIMIT) };
    } catch (error) {
      this.output.error(vscode.l10n.t("Reading the writes waiting for you"), error);
      return { error };
    }
  }

  dispose(): void {
    this.#watch.dispose();
    this.#changed.dispose();
    this.#counted.dispose();
  }
}
