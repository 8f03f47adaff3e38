import { afterEach, describe, expect, it, vi } from "vitest";
import { CustodyClient, userIdOf, usernamesOf } from "@custody/shared";
import { lookUpLostAnswer, planWrite, recognitionOf, unansweredWrite } from "@custody/shared/road-steps";
import { demoForFile, planContext, type RunningEmulator } from "./emulator-harness.js";

// The users are listed to name transactions' creators and to find an operator's id. An id or a
// username the listing does not show (a deleted user) must not list every user again on every call.

const demo = demoForFile();

/** A client whose GET /users requests are counted (the real fetch does the work). */
function countingClient(emulator: RunningEmulator, operator: string): { client: CustodyClient; userListings: () => number } {
  const paths: string[] = [];
  const client = new CustodyClient({
    baseUrl: emulator.baseUrl,
    operator,
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    },
  });
  return { client, userListings: () => paths.filter((path) => path.endsWith("/users")).length };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("listing the workspace's users: what it did not show is remembered for a while", () => {
  it("names creators with one listing, and a deleted user's id does not list them again until five minutes have passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const { client, userListings } = countingClient(demo.emulator(), "treasury-bot");
    const treasuryId = (await demo.treasury().listAllUsers()).find((user) => user.username === "treasury-bot")!.id;
    const deleted = 999_999;
    for (let dryRun = 0; dryRun < 5; dryRun += 1) expect(await usernamesOf(client, [treasuryId, deleted])).toEqual(new Map([[treasuryId, "treasury-bot"]]));
    expect(userListings()).toBe(1);
    // The operator's id comes from the same listing.
    expect(await userIdOf(client, "treasury-bot")).toBe(treasuryId);
    expect(userListings()).toBe(1);
    vi.setSystemTime(Date.now() + 5 * 60 * 1000);
    await usernamesOf(client, [deleted]);
    expect(userListings()).toBe(2);
  });

  it("a lost answer's look-up for an operator the listing does not show lists the users once, not at every step", async () => {
    const { client, userListings } = countingClient(demo.emulator(), "staking-bot");
    const plan = await planWrite(planContext(client), {
      kind: "solana_create_stake",
      account: "sol-treasury",
      amount: 5_000_000_000n,
      validator: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    });
    const write = { ...unansweredWrite(plan, await recognitionOf(client, plan)), operator: "operator-since-deleted" };
    const before = userListings();
    for (let step = 0; step < 4; step += 1) expect((await lookUpLostAnswer(client, write)).found).toBe("none");
    expect(userListings() - before).toBe(1);
  });
});
