import { accountDirectoryOf, AccountNotFoundError, CustodyClient, resolveAccount } from "@custody/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { control, startDemoEmulator, type RunningEmulator } from "./emulator-harness.js";

// resolveAccount by name through the client's directory of names, against the emulator: the
// directory is a hint (fetch by id, check the name and the account count, which a look at it less
// than a second old vouches for), never the answer.

const OPERATOR = "treasury-bot";
const RULE = {
  transaction: { creators: [{ username: OPERATOR, is_api: true }], steps: [{ quorum: 1, approvers: [{ username: OPERATOR, is_api: true }] }] },
  staking: null,
  smart_contract: null,
};

/** A client whose requests are counted (the real fetch does the work). */
function countingClient(emulator: RunningEmulator): { client: CustodyClient; paths: string[] } {
  const paths: string[] = [];
  const client = new CustodyClient({
    baseUrl: emulator.baseUrl,
    operator: OPERATOR,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      paths.push(`${url.pathname.slice(new URL(emulator.baseUrl).pathname.length)}${url.search}`);
      return fetch(input, init);
    },
  });
  return { client, paths };
}

const fullListings = (paths: readonly string[]): number => paths.filter((path) => path.startsWith("/accounts?") && path.includes("page_size=1000")).length;

async function createAccount(emulator: RunningEmulator, name: string, allowDuplicateName = false): Promise<number> {
  const created = (await control(emulator, "POST", "/accounts", {
    name,
    currency: "solana_testnet",
    governance: RULE,
    allow_duplicate_name: allowDuplicateName,
  })) as { id: number };
  return created.id;
}

describe("resolveAccount by name: a per-client directory used as a hint", () => {
  let emulator: RunningEmulator;
  beforeEach(async () => {
    emulator = await startDemoEmulator();
  });
  afterEach(async () => {
    await emulator.close();
  });

  it("lists every account once, then resolves a name with one GET by id, and one single-account page once the count is a second old", async () => {
    const { client, paths } = countingClient(emulator);
    let now = 1_000_000;
    accountDirectoryOf(client, { now: () => now });
    const first = await resolveAccount(client, "sol-cold");
    expect(first.name).toBe("sol-cold");
    expect(fullListings(paths)).toBe(1);
    paths.length = 0;
    // The listing saw the count a moment ago: it vouches for it (countTrustMs, 1 s).
    const second = await resolveAccount(client, "sol-cold");
    expect(second).toEqual(first);
    expect(paths).toEqual([`/accounts/${first.id}`]);
    now += 1_000;
    paths.length = 0;
    expect((await resolveAccount(client, "dot-vault")).name).toBe("dot-vault");
    expect(paths.filter((path) => path.startsWith("/accounts?"))).toEqual(["/accounts?page=1&page_size=1"]);
    expect(fullListings(paths)).toBe(0);
  });

  it("the answer is always the account as it is now, read by id, never the listing's copy", async () => {
    const { client } = countingClient(emulator);
    const before = await resolveAccount(client, "sol-cold");
    await control(emulator, "POST", `/accounts/${before.id}/deposit`, { amount: "12345" });
    const after = await resolveAccount(client, "sol-cold");
    expect(after.balance).toBe(before.balance + 12345n);
  });

  it("a second account created with the same name changes the count: the name is refused as ambiguous once the count seen is a second old", async () => {
    const { client, paths } = countingClient(emulator);
    let now = 1_000_000;
    accountDirectoryOf(client, { now: () => now });
    const original = await resolveAccount(client, "sol-cold");
    const twin = await createAccount(emulator, "sol-cold", true);
    // The documented window: within the second the listing vouches for the count, the hint holds.
    expect((await resolveAccount(client, "sol-cold")).id).toBe(original.id);
    now += 1_000;
    paths.length = 0;
    const refusal = await resolveAccount(client, "sol-cold").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AccountNotFoundError);
    expect((refusal as Error).message).toBe(
      `account: the name <untrusted field="account.name">sol-cold</untrusted> is shared by accounts ${original.id}, ${twin}: name the account by id`,
    );
    expect(fullListings(paths)).toBe(1);
    // Once the listing knows both, the refusal needs no hint to be wrong about.
    await expect(resolveAccount(client, "sol-cold")).rejects.toThrow(/is shared by accounts/);
  });

  it("the hinted account renamed: the directory is read again and the name resolves to what holds it now", async () => {
    const { client } = countingClient(emulator);
    const cold = await resolveAccount(client, "sol-cold");
    const treasury = await resolveAccount(client, "sol-treasury");
    await control(emulator, "PUT", `/accounts/${cold.id}/name`, { name: "sol-cold-old" });
    await control(emulator, "PUT", `/accounts/${treasury.id}/name`, { name: "sol-cold" });
    expect((await resolveAccount(client, "sol-cold")).id).toBe(treasury.id);
    await expect(resolveAccount(client, "sol-treasury")).rejects.toThrow(/no account is named "sol-treasury"/);
    expect((await resolveAccount(client, "sol-cold-old")).id).toBe(cold.id);
  });

  it("a name the directory does not know lists again (it may be new), and a missing name still suggests near ones", async () => {
    const { client, paths } = countingClient(emulator);
    await resolveAccount(client, "sol-cold");
    const id = await createAccount(emulator, "fresh-account");
    paths.length = 0;
    expect((await resolveAccount(client, "fresh-account")).id).toBe(id);
    expect(fullListings(paths)).toBe(1);
    await expect(resolveAccount(client, "sol")).rejects.toThrow(
      /no account is named "sol"; did you mean <untrusted field="account.name">sol-treasury<\/untrusted> \(id \d+\), <untrusted field="account.name">sol-cold<\/untrusted> \(id \d+\)\?/,
    );
  });

  it(
    "the documented window: another account renamed to a hinted name within the max age, " + "with the count unchanged, is not seen until the hint expires",
    async () => {
      let now = 1_000_000;
      const client = new CustodyClient({ baseUrl: emulator.baseUrl, operator: OPERATOR });
      accountDirectoryOf(client, { maxAgeMs: 60_000, now: () => now });
      const cold = await resolveAccount(client, "sol-cold");
      const vault = await resolveAccount(client, "dot-vault");
      await control(emulator, "PUT", `/accounts/${vault.id}/name`, { name: "sol-cold", allow_duplicate_name: true });
      // Within the window the hint holds: sol-cold still names account cold.id and the count did not move.
      expect((await resolveAccount(client, "sol-cold")).id).toBe(cold.id);
      now += 60_001;
      await expect(resolveAccount(client, "sol-cold")).rejects.toThrow(
        `the name <untrusted field="account.name">sol-cold</untrusted> is shared by accounts ${cold.id}, ${vault.id}`,
      );
    },
  );

  it("with a max age of 0 every resolution lists every account, and the same rename is refused at once", async () => {
    const { client, paths } = countingClient(emulator);
    accountDirectoryOf(client, { maxAgeMs: 0, now: () => 5 });
    await expect(resolveAccount(client, "sol-cold")).resolves.toMatchObject({ name: "sol-cold" });
    const vault = await resolveAccount(client, "dot-vault");
    await control(emulator, "PUT", `/accounts/${vault.id}/name`, { name: "sol-cold", allow_duplicate_name: true });
    paths.length = 0;
    await expect(resolveAccount(client, "sol-cold")).rejects.toThrow(/is shared by accounts/);
    expect(fullListings(paths)).toBe(1);
  });

  it("a reference by id and a string of digits that names no account both read the account by id", async () => {
    const { client } = countingClient(emulator);
    const cold = await resolveAccount(client, "sol-cold");
    expect((await resolveAccount(client, cold.id)).name).toBe("sol-cold");
    expect((await resolveAccount(client, String(cold.id))).name).toBe("sol-cold");
  });

  it("once listed, digits that name no account are read by id (with a single-account page once the count is a second old), no listing", async () => {
    const { client, paths } = countingClient(emulator);
    let now = 1_000_000;
    accountDirectoryOf(client, { now: () => now });
    const cold = await resolveAccount(client, "sol-cold");
    paths.length = 0;
    expect((await resolveAccount(client, String(cold.id))).name).toBe("sol-cold");
    now += 1_000;
    expect((await resolveAccount(client, String(cold.id))).name).toBe("sol-cold");
    expect((await resolveAccount(client, String(cold.id))).name).toBe("sol-cold");
    expect(fullListings(paths)).toBe(0);
    expect(paths.sort()).toEqual([`/accounts/${cold.id}`, `/accounts/${cold.id}`, `/accounts/${cold.id}`, "/accounts?page=1&page_size=1"]);
    await expect(resolveAccount(client, "999999")).rejects.toThrow('account: no account has the id 999999 or the name "999999"');
    expect(fullListings(paths)).toBe(0);
  });

  it(
    "a string of digits that is one account's id and another's exact name is refused as " + "ambiguous, naming both; a JSON number or #1 is always the id",
    async () => {
      const { client } = countingClient(emulator);
      const treasury = await resolveAccount(client, 1);
      expect(treasury.name).toBe("sol-treasury");
      const named = await createAccount(emulator, "1");
      const message =
        'account: "1" is ambiguous: it is the id of account <untrusted ' +
        `field="account.name">sol-treasury</untrusted> (id 1) and the exact name of account ${named}; ` +
        `to mean the account with id 1, give "#1"; to mean the account named "1", give "#${named}"`;
      const refusal = await resolveAccount(client, "1").catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AccountNotFoundError);
      expect((refusal as Error).message).toBe(message);
      // Again through the directory's hint for the name "1": still refused.
      await expect(resolveAccount(client, "1")).rejects.toThrow(message);
      expect((await resolveAccount(client, 1)).id).toBe(1);
      expect((await resolveAccount(client, "#1")).id).toBe(1);
      expect((await resolveAccount(client, named)).name).toBe("1");
      expect((await resolveAccount(client, `#${named}`)).name).toBe("1");
    },
  );

  it("an account named by its own id is no ambiguity, and digits that are neither an id nor a name say so", async () => {
    const { client } = countingClient(emulator);
    const id = await createAccount(emulator, "renamed-soon");
    await control(emulator, "PUT", `/accounts/${id}/name`, { name: String(id) });
    expect((await resolveAccount(client, String(id))).id).toBe(id);
    await expect(resolveAccount(client, "999999")).rejects.toThrow('account: no account has the id 999999 or the name "999999"');
  });
});
