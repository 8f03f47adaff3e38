import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CustodyClient } from "../../../src/client/custody-client.js";
import { accountDirectoryOf } from "../../../src/kinds/kit/account-directory.js";
import { resolveAccount } from "../../../src/kinds/kit/account-resolution.js";
import type { AccountWire } from "../../../src/schemas/account.js";
import { json, ScriptedServer, text } from "../../client/scripted-server.js";
import { SOLANA_RECIPIENT } from "../../currency-fixtures.js";

// The directory's hint checks where the emulator cannot play the service: an account removed
// (404 by id), and a service whose page_info.count is the page's size rather than the list's.

function account(id: number, name: string): AccountWire {
  return {
    id,
    name,
    address: SOLANA_RECIPIENT,
    balance: "10",
    available_balance: "10",
    currency: "solana_testnet",
    type: "Solana",
    coin_fields: { type: "Solana" },
  };
}

const page = (accounts: AccountWire[], count = accounts.length) =>
  json({ edges: accounts.map((node, cursor) => ({ cursor, node })), page_info: { count, has_next_page: false } });
const notFound = text(404, '{"message":"account 1 does not exist","name":"NotFound","status_code":404}', { "content-type": "application/json" });

describe("the account directory behind resolveAccount", () => {
  let server: ScriptedServer;
  let client: CustodyClient;
  beforeEach(async () => {
    server = await ScriptedServer.start();
    client = new CustodyClient({ baseUrl: server.baseUrl, operator: "bot", retry: { retries: 0 } });
  });
  afterEach(async () => {
    await server.close();
  });

  it("a hinted account the service no longer has (404) lists again and decides from the listing", async () => {
    accountDirectoryOf(client, { countTrustMs: 0 });
    server.on("GET", "/accounts", page([account(1, "ops"), account(2, "vault")]), page([account(1, "ops")], 2), page([account(3, "ops"), account(2, "vault")]));
    server.on("GET", "/accounts/1", notFound);
    expect((await resolveAccount(client, "ops")).id).toBe(1);
    expect((await resolveAccount(client, "ops")).id).toBe(3);
    expect(
      server
        .received()
        .map((request) => request.url)
        .sort(),
    ).toEqual(["/accounts?page=1&page_size=1000", "/accounts/1", "/accounts?page=1&page_size=1", "/accounts?page=1&page_size=1000"].sort());
    expect(server.unscripted).toEqual([]);
  });

  it("a service whose count is the page's size only makes every hint fail its check: slower, never wrong", async () => {
    accountDirectoryOf(client, { countTrustMs: 0 });
    const listing = [account(1, "ops"), account(2, "vault")];
    server.on("GET", "/accounts", page(listing), page([account(1, "ops")], 1), page(listing), page([account(1, "ops")], 1), page(listing));
    server.on("GET", "/accounts/1", json(account(1, "ops")), json(account(1, "ops")));
    for (let round = 0; round < 3; round += 1) expect((await resolveAccount(client, "ops")).id).toBe(1);
    expect(server.received().filter((request) => request.url === "/accounts?page=1&page_size=1000")).toHaveLength(3);
    expect(server.unscripted).toEqual([]);
  });

  it("invalidate() and an expired listing both make the next resolution list again", async () => {
    let now = 0;
    const directory = accountDirectoryOf(client, { maxAgeMs: 1_000, now: () => now });
    const listing = [account(1, "ops")];
    server.on("GET", "/accounts", page(listing), page(listing), page(listing), page(listing));
    server.on("GET", "/accounts/1", json(account(1, "ops")));
    await resolveAccount(client, "ops");
    await resolveAccount(client, "ops");
    directory.invalidate();
    await resolveAccount(client, "ops");
    now = 1_000;
    await resolveAccount(client, "ops");
    expect(server.received().filter((request) => request.url === "/accounts?page=1&page_size=1000")).toHaveLength(3);
    expect(server.unscripted).toEqual([]);
  });

  it("resolutions without a listing share the one under way instead of each listing every account", async () => {
    const listing = [account(1, "ops"), account(2, "vault")];
    server.on("GET", "/accounts", { kind: "delay", ms: 50, then: page(listing) }, page(listing));
    const [ops, vault] = await Promise.all([resolveAccount(client, "ops"), resolveAccount(client, "vault")]);
    expect([ops.id, vault.id]).toEqual([1, 2]);
    expect(server.received().filter((request) => request.url === "/accounts?page=1&page_size=1000")).toHaveLength(1);
  });

  it("a resolution that is aborted stops waiting, and the listing it shared still serves the other", async () => {
    const listing = [account(1, "ops"), account(2, "vault")];
    server.on("GET", "/accounts", { kind: "delay", ms: 100, then: page(listing) });
    const stop = new AbortController();
    const aborted = resolveAccount(client, "ops", { signal: stop.signal });
    const other = resolveAccount(client, "vault");
    await server.receivedCount(1);
    stop.abort(new Error("the person cancelled"));
    await expect(aborted).rejects.toThrow("the person cancelled");
    expect((await other).id).toBe(2);
    expect(server.received()).toHaveLength(1);
  });

  it("a listing of several pages reads the pages its count announces, and all of them", async () => {
    const more = (accounts: AccountWire[], hasNext: boolean) =>
      json({ edges: accounts.map((node, cursor) => ({ cursor, node })), page_info: { count: 2001, has_next_page: hasNext } });
    server.on("GET", "/accounts", more([account(1, "a")], true), more([account(2, "b")], true), more([account(3, "c")], false));
    const everyone = await accountDirectoryOf(client).refresh();
    expect(everyone.map((one) => one.id).sort()).toEqual([1, 2, 3]);
    expect(
      server
        .received()
        .map((request) => request.url)
        .sort(),
    ).toEqual(["/accounts?page=1&page_size=1000", "/accounts?page=2&page_size=1000", "/accounts?page=3&page_size=1000"]);
  });

  it("hints past three quarters of their max age are listed again in the background, so a busy process never waits for a listing", async () => {
    let now = 0;
    const directory = accountDirectoryOf(client, { maxAgeMs: 1_000, countTrustMs: 0, now: () => now });
    const listing = [account(1, "ops")];
    // A listing of one account is also the one-account page the hint's check reads.
    server.on("GET", "/accounts", page(listing), page(listing), page(listing), page(listing));
    server.on("GET", "/accounts/1", json(account(1, "ops")), json(account(1, "ops")));
    await resolveAccount(client, "ops");
    now = 800;
    // Answered from the hint; the listing it starts is awaited by no one.
    expect((await resolveAccount(client, "ops")).id).toBe(1);
    now = 1_500;
    // The first listing is past its max age now: hints again only once the background one (started at 800) is in.
    await vi.waitFor(() => expect(directory.hints()).toBeDefined());
    expect((await resolveAccount(client, "ops")).id).toBe(1);
    const listings = server.received().filter((request) => request.url === "/accounts?page=1&page_size=1000");
    expect(listings).toHaveLength(2);
    // The last resolution was the hint's: a GET by id and a one-account page, no listing of its own.
    expect(
      server
        .received()
        .slice(-2)
        .map((request) => request.url)
        .sort(),
    ).toEqual(["/accounts/1", "/accounts?page=1&page_size=1"]);
  });

  it(
    "a count seen less than countTrustMs ago vouches for itself: a name or digits cost one GET by id; " + "an account created within it is seen after it",
    async () => {
      let now = 0;
      accountDirectoryOf(client, { countTrustMs: 1_000, now: () => now });
      const two = [account(1, "ops"), account(7, "vault")];
      const three = [...two, account(9, "7")];
      server.on("GET", "/accounts", page(two), page([account(1, "ops")], 2), page([account(1, "ops")], 3), page(three));
      server.on("GET", "/accounts/1", json(account(1, "ops")));
      server.on("GET", "/accounts/7", json(account(7, "vault")), json(account(7, "vault")), json(account(7, "vault")), json(account(7, "vault")));
      const urls = () => server.received().map((request) => request.url);
      // The listing at 0 vouches for its count until 1,000.
      expect((await resolveAccount(client, "ops")).id).toBe(1);
      now = 500;
      expect((await resolveAccount(client, "ops")).id).toBe(1);
      expect((await resolveAccount(client, "7")).id).toBe(7);
      expect(urls()).toEqual(["/accounts?page=1&page_size=1000", "/accounts/1", "/accounts/7"]);
      // Past it, the count is read again beside the GET by id, and the page read at 1,000 vouches until 2,000.
      now = 1_000;
      expect((await resolveAccount(client, "7")).id).toBe(7);
      expect(urls().slice(3).sort()).toEqual(["/accounts/7", "/accounts?page=1&page_size=1"]);
      // Account 9, named "7", created at 1,200: not seen within the second (the documented window) ...
      now = 1_500;
      expect((await resolveAccount(client, "7")).id).toBe(7);
      expect(urls().slice(5)).toEqual(["/accounts/7"]);
      // ... and seen once it has passed: the count differs, the listing shows the name taken, "7" is refused as ambiguous.
      now = 2_000;
      await expect(resolveAccount(client, "7")).rejects.toThrow('"7" is ambiguous');
      expect(server.unscripted).toEqual([]);
    },
  );
});
