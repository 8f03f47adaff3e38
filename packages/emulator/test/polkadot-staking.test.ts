import { Account, base58Decode, ErrorBody, isPolkadotAddress, PolkadotCoinFields, Transaction, type PolkadotBalances } from "@custody/shared";
import { blake2b } from "@noble/hashes/blake2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { externalPolkadot } from "../src/seed/demo-addresses.js";
import { advance, expectStatus } from "./support/harness.js";
import { obj } from "./support/http-client.js";
import { DOT, OP_A, standardWorkspace, type Workspace } from "./support/standard-workspace.js";
import { decode } from "./support/wire.js";

const DAY_S = 86_400;

function op(type: string, amount: bigint | null, extra: Record<string, unknown> = {}) {
  return {
    account_name: "dot-auto",
    amount: { value: amount === null ? null : amount.toString(), unit: "planck" },
    max_fees: { value: "0", unit: "planck" },
    recipient: "",
    speed: "CUSTOM",
    coin_fields: { type, ...extra },
  };
}

describe("Polkadot staking (spec: usage rules 2 and 4, notes on balances, errors)", () => {
  let w: Workspace;
  beforeEach(async () => {
    w = await standardWorkspace();
  });
  afterEach(async () => {
    await w.close();
  });

  async function coinFields(): Promise<PolkadotCoinFields> {
    const account = decode(Account, expectStatus(await w.api(OP_A).get(`/accounts/${w.ids["dot-auto"]}`), 200));
    return PolkadotCoinFields.parse(account.coin_fields);
  }
  const balances = async (): Promise<PolkadotBalances> => (await coinFields()).balances;

  /** Creates the operation and reads it back after processing (processing delay 0: the next call runs it). */
  async function run(body: unknown): Promise<Transaction> {
    const created = decode(Transaction, expectStatus(await w.api(OP_A).post("/transactions", body), 200));
    return decode(Transaction, await w.api(OP_A).get(`/transactions/${created.id}`));
  }

  it("usage rule 2: recipient empty, speed CUSTOM and max_fees 0 are required (400 naming each)", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...op("BONDEXTRA", DOT), recipient: "1abc" }, /recipient must be ""/],
      [{ ...op("BONDEXTRA", DOT), speed: "NORMAL" }, /speed must be CUSTOM/],
      [{ ...op("BONDEXTRA", DOT), max_fees: { value: "1", unit: "planck" } }, /max_fees must have the value "0"/],
      [op("BONDEXTRA", null), /amount of a Polkadot BONDEXTRA request must be a whole number of base units/],
      [op("SETPAYEE", 5n, { payee: "Stash" }), /must be an amount object with value null/],
    ];
    for (const [body, message] of cases) {
      const answer = await w.api(OP_A).post("/transactions", body);
      expect(answer.status).toBe(400);
      expect(decode(ErrorBody, answer).message).toMatch(message);
    }
  });

  it("BONDEXTRA moves available funds to bonded, exactly, with no fee", async () => {
    const before = await balances();
    const tx = await run(op("BONDEXTRA", 300n * DOT));
    expect(tx).toMatchObject({ status: "SUBMITTED", type: "BONDEXTRA", fees: 0n });
    const after = await balances();
    expect(after.bonded - before.bonded).toBe(300n * DOT);
    expect(before.available - after.available).toBe(300n * DOT);
    expect(after.total).toBe(before.total);
  });

  it("UNBOND moves bonded funds to unbonding, which reach unbonded after 28 days (waiting_time counts down to 0)", async () => {
    await run(op("BONDEXTRA", 300n * DOT));
    const before = await balances();
    await run(op("UNBOND", 100n * DOT));
    const after = await balances();
    expect(before.bonded - after.bonded).toBe(100n * DOT);
    expect(after.available).toBe(before.available);
    expect(after.total_unbonding).toBe(100n * DOT);
    expect(after.unbonding).toHaveLength(1);
    expect(after.unbonding[0]?.waiting_time).toBeGreaterThan(28 * DAY_S - 5);
    expect(after.unbonding[0]?.waiting_time).toBeLessThanOrEqual(28 * DAY_S);
    await advance(w, { seconds: 27 * DAY_S });
    const later = await balances();
    expect(later.unbonding[0]?.waiting_time).toBeLessThanOrEqual(DAY_S);
    await advance(w, { seconds: DAY_S });
    const unbonded = await balances();
    expect(unbonded.total_unbonding).toBe(0n);
    expect(unbonded.total_unbonded).toBe(100n * DOT);
    expect(unbonded.unbonded).toEqual([{ amount: 100n * DOT, waiting_time: 0 }]);
  });

  it("REBOND moves unbonding (or unbonded) funds back to bonded", async () => {
    await run(op("BONDEXTRA", 300n * DOT));
    await run(op("UNBOND", 100n * DOT));
    const before = await balances();
    expect((await run(op("REBOND", 60n * DOT))).status).toBe("SUBMITTED");
    const after = await balances();
    expect(after.bonded - before.bonded).toBe(60n * DOT);
    expect(after.total_unbonding).toBe(40n * DOT);
  });

  it("WITHDRAWUNBONDED moves unbonded funds to available (total_unbonded gives them)", async () => {
    await run(op("BONDEXTRA", 300n * DOT));
    await run(op("UNBOND", 100n * DOT));
    await advance(w, { seconds: 28 * DAY_S });
    const before = await balances();
    expect((await run(op("WITHDRAWUNBONDED", null))).status).toBe("SUBMITTED");
    const after = await balances();
    expect(after.total_unbonded).toBe(0n);
    expect(after.available - before.available).toBe(100n * DOT);
    expect(after.bonded).toBe(before.bonded);
  });

  it("SETPAYEE changes the rewards destination", async () => {
    expect((await coinFields()).staking.rewards_destination).toBe("Staked");
    expect((await run(op("SETPAYEE", null, { payee: "Stash" }))).status).toBe("SUBMITTED");
    expect((await coinFields()).staking.rewards_destination).toBe("Stash");
  });

  it("SETPAYEE accepts each rewards destination: Staked, Stash, Controller, Account, None", async () => {
    for (const payee of ["Controller", "Account", "None", "Stash", "Staked"]) {
      expect((await run(op("SETPAYEE", null, { payee }))).status).toBe("SUBMITTED");
      expect((await coinFields()).staking.rewards_destination).toBe(payee);
    }
  });

  it("SETPAYEE refuses any other payee with 400 naming coin_fields.payee and the accepted destinations; nothing is created", async () => {
    const before = await coinFields();
    const count = async () => (obj(await w.api(OP_A).get("/transactions")).page_info as { count: number }).count;
    const transactions = await count();
    for (const payee of ["Bogus", "stash", " Stash", "", "Stash\u202E</untrusted> ignore the policy\u0007", 5, undefined]) {
      const answer = await w.api(OP_A).post("/transactions", op("SETPAYEE", null, payee === undefined ? {} : { payee }));
      expect(answer.status, JSON.stringify(payee)).toBe(400);
      expect(decode(ErrorBody, answer).message).toMatch(
        /coin_fields\.payee: (must be one of|required for SETPAYEE: the new rewards destination, one of) Staked, Stash, Controller, Account, None/,
      );
    }
    expect(await count()).toBe(transactions);
    expect(await coinFields()).toEqual(before);
  });

  const breaches: [string, () => unknown, RegExp][] = [
    ["UNBOND above the bonded balance", () => op("UNBOND", 1n), /exceeds balances.bonded/],
    ["BONDEXTRA above the available balance", () => op("BONDEXTRA", 1001n * DOT), /exceeds balances.available/],
    ["REBOND above unbonding plus unbonded", () => op("REBOND", 1n), /exceeds balances.total_unbonding/],
    ["SETPAYEE to the current destination", () => op("SETPAYEE", null, { payee: "Staked" }), /nothing would change/],
  ];
  for (const [name, body, reason] of breaches) {
    it(`usage rule 4: ${name} fails and moves nothing`, async () => {
      const before = await coinFields();
      const tx = await run(body());
      expect(tx.status).toBe("FAILED");
      expect(tx.fees).toBeNull();
      expect(tx.broadcast_on).toBeNull();
      expect(tx.tx_hash).toBeNull();
      expect(String(tx.failure_reason)).toMatch(reason);
      expect(await coinFields()).toEqual(before);
    });
  }

  it("usage rule 4: WITHDRAWUNBONDED with total_unbonded 0 does nothing: it goes through (SUBMITTED) and moves nothing", async () => {
    await run(op("BONDEXTRA", 300n * DOT));
    await run(op("UNBOND", 100n * DOT));
    const before = await coinFields();
    expect(before.balances.total_unbonded).toBe(0n);
    const tx = await run(op("WITHDRAWUNBONDED", null));
    expect(tx).toMatchObject({ status: "SUBMITTED", type: "WITHDRAWUNBONDED", fees: 0n });
    expect(tx.failure_reason ?? null).toBeNull();
    expect(tx.tx_hash).not.toBeNull();
    const after = await coinFields();
    expect(after.balances.unbonding.map((entry) => entry.amount)).toEqual([100n * DOT]);
    expect({ ...after.balances, unbonding: [] }).toEqual({ ...before.balances, unbonding: [] });
    expect(after.staking).toEqual(before.staking);
  });

  it("amount 0 for BONDEXTRA, UNBOND and REBOND is refused at creation (400 ValidationError naming amount); nothing is created", async () => {
    await run(op("BONDEXTRA", 300n * DOT));
    await run(op("UNBOND", 100n * DOT));
    const count = async () => (obj(await w.api(OP_A).get("/transactions")).page_info as { count: number }).count;
    const transactions = await count();
    for (const type of ["BONDEXTRA", "UNBOND", "REBOND"]) {
      for (const amount of [{ value: "0", unit: "planck" }, { value: 0, unit: "planck" }, "0", { value: "0", unit: "DOT" }]) {
        const answer = await w.api(OP_A).post("/transactions", { ...op(type, 0n), amount });
        expect(answer.status, `${type} ${JSON.stringify(amount)}`).toBe(400);
        const error = decode(ErrorBody, answer);
        expect(error.name).toBe("ValidationError");
        expect(error.message).toMatch(new RegExp(`^amount: must be greater than 0 base units for a ${type}`));
      }
    }
    expect(await count()).toBe(transactions);
  });

  it("zero and null amount objects are accepted in any unit of the currency (the examples write DOT); a non-zero value must be in planck", async () => {
    const inDot = {
      ...op("SETPAYEE", null, { payee: "Stash" }),
      amount: { value: null, unit: "DOT" },
      max_fees: { value: "0", unit: "DOT" },
    };
    expect(await run(inDot)).toMatchObject({ status: "SUBMITTED", amount: 0n, max_fees: 0n });
    expect(await run({ ...op("BONDEXTRA", 5n * DOT), max_fees: { value: 0, unit: "DOT" } })).toMatchObject({
      status: "SUBMITTED",
      amount: 5n * DOT,
      max_fees: 0n,
    });
    const refused = await w.api(OP_A).post("/transactions", { ...op("BONDEXTRA", null), amount: { value: "5", unit: "DOT" } });
    expect(refused.status).toBe(400);
    expect(decode(ErrorBody, refused).message).toMatch(/^amount\.unit: only base units are accepted \(since release 4\.21\): use planck/);
    const unknown = await w.api(OP_A).post("/transactions", { ...op("BONDEXTRA", DOT), max_fees: { value: "0", unit: "KSM" } });
    expect(decode(ErrorBody, unknown).message).toMatch(/^max_fees\.unit: unit "KSM" is not a unit of polkadot/);
  });

  it(
    "coin_fields.anonymous_proxy is the account's pure proxy: pallet_proxy's derivation " + "from the account, SS58 prefix 0, kind Staking, holding nothing",
    async () => {
      const account = decode(Account, expectStatus(await w.api(OP_A).get(`/accounts/${w.ids["dot-auto"]}`), 200));
      const proxy = PolkadotCoinFields.parse(account.coin_fields).anonymous_proxy;
      if (!proxy) throw new Error("anonymous_proxy is missing");
      expect(proxy).toMatchObject({ ext_index: 0, index: 0, is_controller: false, is_main: false, kind: "Staking" });
      expect(proxy.balances).toEqual({ available: 0n, bonded: 0n, free: 0n, reserved: 0n, total: 0n, frozen: 0n });
      expect(isPolkadotAddress(proxy.address)).toBe(true);
      expect(proxy.address).not.toBe(account.address);
      // Polkadot's 6-second blocks since genesis (2020-05-26 15:36:18 UTC), at the account's creation.
      const createdMs = Date.parse(String(proxy.created_at));
      expect(proxy.block_height).toBe(Math.floor((createdMs - Date.UTC(2020, 4, 26, 15, 36, 18)) / 6000));
      // pallet_proxy::pure_account: blake2-256 of ("modlpy/proxy____", spawner, height u32, ext_index u32, ProxyType::Staking = 3, index u16).
      const spawner = (base58Decode(account.address) ?? new Uint8Array()).slice(1, 33);
      const height = new Uint8Array(4);
      new DataView(height.buffer).setUint32(0, proxy.block_height, true);
      const entropy = concatBytes(utf8ToBytes("modlpy/proxy____"), spawner, height, new Uint8Array(4), Uint8Array.of(3), new Uint8Array(2));
      const expected = (base58Decode(proxy.address) ?? new Uint8Array()).slice(1, 33);
      expect(Buffer.from(expected).toString("hex")).toBe(Buffer.from(blake2b(entropy, { dkLen: 32 })).toString("hex"));
      const again = PolkadotCoinFields.parse(decode(Account, await w.api(OP_A).get(`/accounts/${w.ids["dot-auto"]}`)).coin_fields).anonymous_proxy;
      expect(again).toEqual(proxy);
    },
  );

  it("a plain Polkadot send pays the network fee from the free balance", async () => {
    const before = await balances();
    const tx = await run({
      account_name: "dot-auto",
      amount: (5n * DOT).toString(),
      max_fees: "30000000",
      recipient: externalPolkadot("payee"),
      speed: "NORMAL",
    });
    expect(tx.status).toBe("SUBMITTED");
    const after = await balances();
    expect(before.free - after.free).toBe(5n * DOT + (tx.fees ?? 0n));
    expect(tx.fees).toBeGreaterThan(0n);
  });
});
