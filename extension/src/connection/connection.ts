import * as vscode from "vscode";
import { checkModuleVersion, CustodyClient, EMULATOR_KEY_HEADER, hasBlocking, errorMessage, findingMessage } from "@custody/shared";
import { translate } from "../output/translate.js";
import type { AccessTokenStore } from "./access-token-store.js";
import type { ConnectedState, ConnectionState, ConnectionTarget } from "./connection-state.js";
import { settingsProblem, shownBaseUrl } from "./settings-rules.js";

export class NotConnectedError extends Error {
  constructor() {
    super(vscode.l10n.t("not connected to a custody workspace: run Custody: Connect to a Workspace, or start the built-in emulator"));
    this.name = "NotConnectedError";
  }
}

const USER_AGENT = "custody-vscode/0.1.0";

/**
 * The connection to one workspace: a CustodyClient for the operator, checked with GET /_health
 * before it is used. Every change of state is announced.
 */
export class Connection implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.#changed.event;
  #state: ConnectionState = { kind: "disconnected" };
  #attempt = 0;

  constructor(private readonly tokens: AccessTokenStore) {}

  get state(): ConnectionState {
    return this.#state;
  }

  /** The connected state, or NotConnectedError. */
  require(): ConnectedState {
    if (this.#state.kind !== "connected") throw new NotConnectedError();
    return this.#state;
  }

  #set(state: ConnectionState): void {
    this.#state = state;
    this.#changed.fire(state);
  }

  /**
   * Connects and checks health. A module an older major version behind is refused (the spec
   * supports only modules at most two minor versions behind); other findings are kept to show.
   */
  async connect(target: ConnectionTarget): Promise<ConnectionState> {
    const attempt = ++this.#attempt;
    // Settings can be edited by hand: checked as the Connect command's boxes check them, before any call, and a
    // secret in the address (user, password, query, fragment) never reaches the status bar or a log line.
    const problem = target.origin === "settings" ? settingsProblem(target) : undefined;
    if (problem !== undefined) {
      const failed: ConnectionState = { kind: "failed", target: { ...target, baseUrl: shownBaseUrl(target.baseUrl) }, message: problem };
      this.#set(failed);
      return failed;
    }
    this.#set({ kind: "connecting", target });
    let next: ConnectionState;
    try {
      const client = new CustodyClient({
        baseUrl: target.baseUrl,
        operator: target.operator,
        userAgent: USER_AGENT,
        timeoutMs: 15_000,
        headers: await this.#headers(target),
      });
      const health = await client.health();
      const versionFindings = checkModuleVersion(health.module_version);
      next = hasBlocking(versionFindings)
        ? { kind: "failed", target, message: versionFindings.map((item) => findingMessage(item, translate)).join("; ") }
        : { kind: "connected", target, client, health, versionFindings };
    } catch (error) {
      next = { kind: "failed", target, message: errorMessage(error, 1000, translate) };
    }
    // A later connect or a disconnect supersedes this attempt.
    if (attempt === this.#attempt) this.#set(next);
    return next;
  }

  /** The built-in emulator gets its key; a gateway in front of the module (settings) the stored bearer token. */
  async #headers(target: ConnectionTarget): Promise<Record<string, string>> {
    if (target.emulatorKey) return { [EMULATOR_KEY_HEADER]: target.emulatorKey.value };
    const token = target.origin === "settings" ? await this.tokens.get() : undefined;
    return token === undefined ? {} : { Authorization: `Bearer ${token}` };
  }

  disconnect(): void {
    this.#attempt += 1;
    this.#set({ kind: "disconnected" });
  }

  dispose(): void {
    this.#changed.dispose();
  }
}
