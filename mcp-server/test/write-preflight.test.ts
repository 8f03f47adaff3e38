import { startEmulator, type RunningEmulator } from "@custody/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, directClient, ownDepositCallData, transactionsWithLabel } from "./harness/demo-workspace.js";
import { blockingCodes, dryRunAndConfirm, passedCodes, requestOf } from "./harness/guarded-write.js";
import { call, connectHarness, type Harness } from "./harness/mcp-harness.js";
import { useDemoSessions } from "./harness/demo-sessions.js";

// The pre-flight checks of the guarded writes, through a real MCP client on the emulator: each
// case is one a black-box review found passing a dry run (and then sent, or failed on chain).

type Check = { code: string; severity: string; message: string };
const checksOf = (structured: Record<string, unknown>) => (structured.checks ?? []) as Check[];
const checkOf = (structured: Record<string, unknown>, code: string) => checksOf(structured).find((check) => check.code === code);

const demo = useDemoSessions();

const transactionCount = async () => (await directClient(demo.emulator).searchTransactions({ page: 1, page_size: 1 })).page_info.count;

describe("ethereum_stake: whole validators of 32 ETH", () => {
  let deposit: string;
  beforeEach(async () => {
    deposit = await ownDepositCallData(demo.emulator);
  });
  const stake = (amount: string, unit: string) => ({ account: DEMO.ethStaking, contract: DEMO.kilnContract, contract_data: deposit, amount, unit });

  it("blocks 32 wei, naming the amount in both units; nothing can be confirmed", async () => {
    const dry = await call(demo.staking.client, "ethereum_stake", stake("32", "wei"));
    expect(dry.structured.status).toBe("blocked");
    expect(blockingCodes(dry.structured)).toEqual(["ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE"]);
    expect(checkOf(dry.structured, "ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE")?.message).toBe(
      "amount 0.000000000000000032 ETH (32 wei) is not a whole multiple of 32 ETH: a staking deposit funds " +
        "whole validators of 32 ETH each (nearest: 32 ETH (32000000000000000000 wei))",
    );
    expect(dry.token).toBeUndefined();
  });

  it("blocks 33 ETH and passes 64 ETH", async () => {
    expect(blockingCodes((await call(demo.staking.client, "ethereum_stake", stake("33", "ETH"))).structured)).toContain(
      "ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE",
    );
    const two = await call(demo.staking.client, "ethereum_stake", stake("64", "ETH"));
    expect(two.structured.status).toBe("dry_run");
    expect(passedCodes(two)).toContain("ETHEREUM_STAKE_AMOUNT_32_MULTIPLE_OK");
  });
});

describe("create_transaction to a burn address", () => {
  it("blocks a send to Ethereum's zero address and to Solana's System Program: no one controls them", async () => {
    const zero = await call(demo.treasury.client, "create_transaction", {
      account: DEMO.ethOps,
      recipient: "0x0000000000000000000000000000000000000000",
      amount: "0.01",
      unit: "ETH",
    });
    expect(zero.structured.status).toBe("blocked");
    expect(blockingCodes(zero.structured)).toContain("RECIPIENT_ADDRESS_BURN_ADDRESS");
    const system = await call(demo.treasury.client, "create_transaction", {
      account: DEMO.solTreasury,
      recipient: "11111111111111111111111111111111",
      amount: "1",
      unit: "SOL",
    });
    expect(blockingCodes(system.structured)).toContain("RECIPIENT_ADDRESS_BURN_ADDRESS");
    expect(checkOf(system.structured, "RECIPIENT_ADDRESS_BURN_ADDRESS")?.message).toContain("the System Program's address");
  });
});

describe("max_fees against the network's fee estimate", () => {
  let recipient: string;
  beforeEach(async () => {
    recipient = (await accountNamed(demo.emulator, DEMO.solCold)).address;
  });
  const send = (max_fees: string, max_fees_unit: string) =>
    call(demo.treasury.client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL", max_fees, max_fees_unit });

  it("blocks a cap below the estimate for the chosen speed: it does not cover the network fee", async () => {
    const before = await transactionCount();
    const dry = await send("1", "lamport");
    expect(dry.structured.status).toBe("blocked");
    expect(blockingCodes(dry.structured)).toEqual(["MAX_FEES_BELOW_ESTIMATE"]);
    expect(checkOf(dry.structured, "MAX_FEES_BELOW_ESTIMATE")?.message).toMatch(
      /^max_fees 0\.000000001 SOL \(1 lamport\) is below the network fee estimate of 0\.000005 SOL \(5000 lamport\) at speed NORMAL: it does not cover the network fee/,
    );
    expect(await transactionCount()).toBe(before);
  });

  it("warns about a cap more than ten times the estimate, and passes one that covers it", async () => {
    const far = await send("1", "SOL");
    expect(far.structured.status).toBe("dry_run");
    expect(checkOf(far.structured, "MAX_FEES_FAR_ABOVE_ESTIMATE")).toMatchObject({ severity: "warn" });
    const fair = await send("0.00001", "SOL");
    expect(passedCodes(fair)).toContain("MAX_FEES_COVERS_ESTIMATE_OK");
  });

  it("says the cap was not compared when the estimation endpoint fails", async () => {
    await control(demo.emulator, "PUT", "/faults", { error_rate: 1, error_status: 400, methods: ["POST"], path_prefix: "/transactions/fees" });
    const dry = await send("0.00001", "SOL");
    expect(dry.structured.status).toBe("dry_run");
    expect(checkOf(dry.structured, "MAX_FEES_NOT_COMPARED")).toMatchObject({ severity: "warn" });
  });
});

describe("account: a string of digits that is an id and another account's name", () => {
  it('is refused as ambiguous, naming both; "#" and digits is the id', async () => {
    const named = (await control(demo.emulator, "POST", "/accounts", {
      name: "1",
      currency: "solana_testnet",
      governance: (await accountNamed(demo.emulator, DEMO.solTreasury)).governance_rules,
    })) as { id: number };
    const recipient = (await accountNamed(demo.emulator, DEMO.solCold)).address;
    const args = { recipient, amount: "1", unit: "SOL" };
    // Seen as ambiguous once the second in which the process's last look at the account count vouches for it has passed (docs/guard-decisions.md).
    const ambiguous = await vi.waitFor(
      async () => {
        const answer = await call(demo.treasury.client, "create_transaction", { account: "1", ...args });
        expect(answer.structured.status).toBe("failed");
        return answer;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(ambiguous.structured.error).toBe(
      'account: "1" is ambiguous: it is the id of account <untrusted ' +
        `field="account.name">sol-treasury</untrusted> (id 1) and the exact name of account ${named.id}; to ` +
        `mean the account with id 1, give "#1"; to mean the account named "1", give "#${named.id}". Nothing was sent.`,
    );
    const byId = await call(demo.treasury.client, "create_transaction", { account: "#1", ...args });
    expect(byId.structured.status).toBe("dry_run");
    expect(byId.structured.account).toMatchObject({ id: 1, name: "sol-treasury" });
    const byNamedId = await call(demo.treasury.client, "get_account", { account: `#${named.id}` });
    expect(byNamedId.structured.account).toMatchObject({ name: "1" });
  });
});

describe("note: what is shown is what is sent", () => {
  it("refuses a note with a bidirectional override or a zero-width character, naming the field and the character; nothing is sent", async () => {
    const recipient = (await accountNamed(demo.emulator, DEMO.solCold)).address;
    const before = await transactionCount();
    for (const [note, found] of [
      ["refund \u202Etxt.exe", "U+202E at character 8"],
      ["pay\u200Broll", "U+200B at character 4"],
      ["\u2066ok\u2069", "U+2066 at character 1"],
    ] as const) {
      const dry = await call(demo.treasury.client, "create_transaction", { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL", note });
      expect(dry.structured.status).toBe("failed");
      expect(dry.structured.error).toBe(`note: must not contain invisible or bidirectional control characters (found ${found}). Nothing was sent.`);
    }
    const polkadot = await call(demo.treasury.client, "polkadot_bond_extra", { account: DEMO.dotStaking, amount: "1", unit: "DOT", note: "bond\u202E" });
    expect(polkadot.structured.error).toMatch(/^note: must not contain invisible or bidirectional control characters \(found U\+202E/);
    expect(await transactionCount()).toBe(before);
  });

  it("a visible note is sent exactly as shown at the dry run", async () => {
    const recipient = (await accountNamed(demo.emulator, DEMO.solCold)).address;
    const { dry, confirmed } = await dryRunAndConfirm(demo.treasury.client, "create_transaction", {
      account: DEMO.solTreasury,
      recipient,
      amount: "1",
      unit: "SOL",
      note: "Payroll — März",
    });
    expect(confirmed.structured.status).toBe("submitted");
    const shown = (requestOf(dry).body as { note: { title: string } }).note.title;
    const [id] = await transactionsWithLabel(demo.emulator, dry.structured.reference as string);
    const sent = await directClient(demo.emulator).getTransaction(id as number);
    expect(sent.notes[0]?.title).toBe(shown);
    expect(shown).toBe("Payroll — März");
  });
});

describe("polkadot_set_payee: the rewards destination", () => {
  const setPayee = (payee: string) => call(demo.treasury.client, "polkadot_set_payee", { account: DEMO.dotStaking, payee });

  it("blocks Account, whose target account the API cannot name", async () => {
    const dry = await setPayee("Account");
    expect(dry.structured.status).toBe("blocked");
    expect(blockingCodes(dry.structured)).toEqual(["POLKADOT_PAYEE_ACCOUNT_UNSUPPORTED"]);
  });

  it("warns on None (rewards are not paid) and on Controller (deprecated), and passes Stash", async () => {
    const none = await setPayee("None");
    expect(none.structured.status).toBe("dry_run");
    expect(checkOf(none.structured, "POLKADOT_PAYEE_NONE_FORFEITS_REWARDS")).toMatchObject({ severity: "warn" });
    const controller = await setPayee("Controller");
    expect(checkOf(controller.structured, "POLKADOT_PAYEE_CONTROLLER_DEPRECATED")).toMatchObject({ severity: "warn" });
    const stash = await setPayee("Stash");
    expect(checksOf(stash.structured).filter((check) => check.severity !== "info")).toEqual([]);
  });

  it("blocks an unknown destination, naming the allowed ones", async () => {
    const dry = await setPayee("Elsewhere");
    expect(dry.structured.status).toBe("blocked");
    expect(checkOf(dry.structured, "POLKADOT_PAYEE_UNKNOWN")?.message).toBe(
      'payee "Elsewhere" is not a rewards destination: must be Staked or Stash (also Controller, deprecated, and None, which forfeits the rewards)',
    );
  });
});

describe("operations in flight on the same account", () => {
  // Processing slow enough that an approved UNBOND stays APPROVED, not yet signed nor broadcast.
  let slow: RunningEmulator;
  let bot: Harness;
  beforeAll(async () => {
    slow = await startEmulator({ dataDir: null, port: 0, log: () => {}, processingDelayMs: 600_000, tickMs: 10 });
  });
  afterAll(async () => {
    await slow.close();
  });
  beforeEach(async () => {
    bot = await connectHarness(slow, { operator: DEMO.treasuryBot });
  });
  afterEach(async () => {
    await bot.close();
  });

  it("blocks an UNBOND of 3000 DOT right after another still APPROVED, against 3200 DOT bonded, listing it in both units", async () => {
    const { confirmed } = await dryRunAndConfirm(bot.client, "polkadot_unbond", { account: DEMO.dotStaking, amount: "3000", unit: "DOT" });
    const first = confirmed.structured.transaction as { id: number; status: string };
    expect(first.status).toBe("APPROVED");
    // Another amount: the same 3000 DOT again would also be a duplicate of the first.
    const second = await call(bot.client, "polkadot_unbond", { account: DEMO.dotStaking, amount: "2500", unit: "DOT" });
    expect(second.structured.status).toBe("blocked");
    expect(blockingCodes(second.structured)).toEqual(["POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT"]);
    expect(checkOf(second.structured, "POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT")?.message).toContain(
      `(id ${first.id} UNBOND 3000 DOT (30000000000000 planck) APPROVED) = 5500 DOT ` +
        "(55000000000000 planck) exceeds balances.bonded 3200 DOT (32000000000000 planck)",
    );
  });

  it("two confirmations at the same moment against the same bonded funds: one is sent, the other is blocked at the last check before sending", async () => {
    await resetWorkspace(slow);
    const other = await connectHarness(slow, { operator: DEMO.treasuryBot });
    try {
      const args = { account: DEMO.dotStaking, amount: "2000", unit: "DOT" };
      const [first, second] = [await call(bot.client, "polkadot_unbond", args), await call(other.client, "polkadot_unbond", args)];
      expect([first.structured.status, second.structured.status]).toEqual(["dry_run", "dry_run"]);
      const answers = await Promise.all([
        call(bot.client, "polkadot_unbond", { ...args, confirmation_token: first.token }),
        call(other.client, "polkadot_unbond", { ...args, confirmation_token: second.token }),
      ]);
      expect(answers.map((answer) => answer.structured.status).sort()).toEqual(["blocked", "submitted"]);
      const blocked = answers.find((answer) => answer.structured.status === "blocked");
      // Two stores of one operator: the workspace's history also names the first as an identical write.
      expect(blockingCodes(blocked?.structured ?? {})).toEqual(["POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT", "DUPLICATE_OF_RECENT"]);
      expect(blocked?.text).toContain("last check before sending");
    } finally {
      await other.close();
    }
  });
});
