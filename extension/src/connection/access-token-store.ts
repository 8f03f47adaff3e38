import type * as vscode from "vscode";

const KEY = "custody.gatewayAccessToken";

/**
 * The one secret the extension keeps: an optional bearer token for a gateway in front of the
 * module. It lives in VS Code's SecretStorage (the OS keychain), never in settings.
 */
export class AccessTokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    const token = await this.secrets.get(KEY);
    return token === undefined || token === "" ? undefined : token;
  }

  async set(token: string): Promise<void> {
    await this.secrets.store(KEY, token);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(KEY);
  }
}
