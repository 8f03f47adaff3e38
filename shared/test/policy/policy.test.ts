import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLANTED, ruleOf, withPlanted } from "../files/planted-files.js";
import {
  checkPolicy,
  checkPolicyCurrencies,
  confirmationFor,
  Currency,
  grantFor,
  limitSetsFor,
  loadPolicyFile,
  Policy,
  POLICY_FILE_MAX_BYTES,
  PolicyFileError,
  toolPermission,
  type PolicySubject,
} from "../../src/index.js";

const dot = Currency.parse({
  name: "polkadot",
  units: [
    { code: "planck", magnitude: 0 },
    { code: "DOT", magnitude: 10 },
  ],
});
const DOT = 10_000_000_000n;

const policy = Policy.parse({
  limits: { polkadot: { max_per_transaction: { amount: "100", unit: "DOT" }, max_per_day: { base_units: (250n * DOT).toString() } } },
  allowed_recipients: ["15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"],
  allowed_validators: ["CertusDeBmqN8ZawdkxK5kFGMwBXdudvWHYwtNgNhvLu"],
  allowed_contracts: ["0x00000000219ab540356cBB839Cbe05303d7705Fa"],
});

type SubjectOver = Partial<Omit<PolicySubject, "limits">> & { spentLast24h?: bigint };
/** A single user's write as operator "ops", the operator's writes having committed `spentLast24h` already. */
const subject = ({ spentLast24h = 0n, ...over }: SubjectOver, p: Policy = policy): PolicySubject => ({
  currency: dot,
  network: "Polkadot",
  limits: limitSetsFor(p, grantFor(p, null), "ops").map((set) => ({ set, spentLast24h })),
  ...over,
});
const codes = (over: SubjectOver, p: Policy = policy) => checkPolicy(p, subject(over, p)).map((f) => `${f.severity}:${f.code}`);

describe("local policy limits and lists", () => {
  it.each<[string, SubjectOver, string]>([
    ["amount at the per-transaction maximum", { amount: 100n * DOT }, "info:POLICY_MAX_PER_TRANSACTION_OK"],
    ["amount one planck above it", { amount: 100n * DOT + 1n }, "block:POLICY_MAX_PER_TRANSACTION"],
    ["a day that reaches the daily maximum", { amount: 50n * DOT, spentLast24h: 200n * DOT }, "info:POLICY_MAX_PER_DAY_OK"],
    ["a day that goes over it", { amount: 50n * DOT, spentLast24h: 200n * DOT + 1n }, "block:POLICY_MAX_PER_DAY"],
    ["a listed recipient, spaces around it", { recipient: " 15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5 " }, "info:POLICY_RECIPIENT_OK"],
    [
      "a Polkadot recipient in another case (SS58 is case-sensitive)",
      { recipient: "15of4uvjwmo4tdgw7vfqxnlavjcxviqxt9s1mgbjmnhr6sp5" },
      "block:POLICY_RECIPIENT_NOT_ALLOWED",
    ],
    [
      "a Polkadot recipient differing in one letter's case",
      { recipient: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6SP5" },
      "block:POLICY_RECIPIENT_NOT_ALLOWED",
    ],
    [
      "a Solana validator in another case (base58 is case-sensitive)",
      { network: "Solana", validator: "certusDeBmqN8ZawdkxK5kFGMwBXdudvWHYwtNgNhvLu" },
      "block:POLICY_VALIDATOR_NOT_ALLOWED",
    ],
    ["a listed Solana validator", { network: "Solana", validator: "CertusDeBmqN8ZawdkxK5kFGMwBXdudvWHYwtNgNhvLu" }, "info:POLICY_VALIDATOR_OK"],
    [
      "an Ethereum recipient in another case (hex)",
      { network: "Ethereum", recipient: "0x00000000219AB540356CBB839CBE05303D7705FA" },
      "block:POLICY_RECIPIENT_NOT_ALLOWED",
    ],
    ["an unlisted recipient", { recipient: "1xyz" }, "block:POLICY_RECIPIENT_NOT_ALLOWED"],
    ["an unlisted validator", { validator: "Other" }, "block:POLICY_VALIDATOR_NOT_ALLOWED"],
    [
      "a listed contract in another case (hex is not case-sensitive)",
      { network: "Ethereum", contract: "0x00000000219AB540356cbb839cbe05303d7705fa" },
      "info:POLICY_CONTRACT_OK",
    ],
    [
      "an Ethereum-looking contract on an account of another network, in another case",
      { network: "Solana", contract: "0x00000000219AB540356cbb839cbe05303d7705fa" },
      "block:POLICY_CONTRACT_NOT_ALLOWED",
    ],
    [
      "an address of an unknown network in another case",
      { network: null, recipient: "15OF4UVJWMO4TDGW7VFQXNLAVJCXVIQXT9S1MGBJMNHR6SP5" },
      "block:POLICY_RECIPIENT_NOT_ALLOWED",
    ],
    ["an unlisted contract", { contract: "0x0000000000000000000000000000000000000001" }, "block:POLICY_CONTRACT_NOT_ALLOWED"],
  ])("%s", (_name, over, expected) => {
    expect(codes(over)).toContain(expected);
  });

  it("applies no limit to another currency and no list that is absent", () => {
    const other = Currency.parse({
      name: "ethereum",
      units: [
        { code: "wei", magnitude: 0 },
        { code: "ETH", magnitude: 18 },
      ],
    });
    expect(
      checkPolicy(policy, subject({ currency: other, network: "Ethereum", amount: 10n ** 30n })).map((f) => `${f.severity}:${f.code}:${f.message}`),
    ).toEqual([
      "info:POLICY_NO_LIMIT:the local policy's limits (limits) are set for polkadot, none for ethereum: " +
        "none of them applies to this write (limits are keyed by currency identifier)",
    ]);
    expect(checkPolicy(Policy.parse({}), subject({ amount: 10n ** 30n, recipient: "x", validator: "y", contract: "z" }, Policy.parse({})))).toEqual([]);
  });

  it("requires the toolset of the operation an approval releases, when the policy names toolsets", () => {
    const scoped = Policy.parse({ toolsets: ["transactions"] });
    expect(codes({ toolset: "solana_staking" }, scoped)).toEqual(["block:POLICY_TOOLSET_NOT_ENABLED"]);
    expect(codes({ toolset: "transactions" }, scoped)).toEqual(["info:POLICY_TOOLSET_OK"]);
    expect(codes({ toolset: "solana_staking" }, Policy.parse({}))).toEqual([]);
  });

  it("blocks every write while a limit's key names no currency of the workspace, or its unit is not one of the currency's", async () => {
    const workspace: Record<string, Currency> = { polkadot: dot };
    const lookup = async (name: string) => workspace[name];
    const misKeyed = Policy.parse({
      limits: { DOT: { max_per_day: { amount: "1", unit: "DOT" } }, polkadot: { max_per_transaction: { amount: "1", unit: "KSM" } } },
    });
    const found = await checkPolicyCurrencies(misKeyed, lookup);
    expect(found.map((f) => `${f.severity}:${f.code}`)).toEqual(["block:POLICY_LIMIT_UNKNOWN_CURRENCY", "block:POLICY_LIMIT_INVALID"]);
    expect(found[0]?.message).toBe(
      "the local policy's limits.DOT names no currency of the workspace, so it would limit nothing: key " +
        "limits by currency identifier (for example solana_testnet, polkadot, ethereum)",
    );
    expect(found[1]?.message).toContain("limits.polkadot.max_per_transaction");
    expect(await checkPolicyCurrencies(policy, lookup)).toEqual([]);
    expect(await checkPolicyCurrencies(Policy.parse({}), lookup)).toEqual([]);
    // A service that looked the key up loosely answers another identifier: the limit would apply to nothing.
    const loose = Policy.parse({ limits: { POLKADOT: { max_per_day: { amount: "1", unit: "DOT" } } } });
    const loosely = await checkPolicyCurrencies(loose, async (name) => (name.toLowerCase() === "polkadot" ? dot : undefined));
    expect(loosely.map((f) => f.code)).toEqual(["POLICY_LIMIT_UNKNOWN_CURRENCY"]);
  });

  it("blocks, rather than ignores, a limit written in a unit the currency lacks", () => {
    const bad = Policy.parse({ limits: { polkadot: { max_per_transaction: { amount: "1", unit: "KSM" } } } });
    expect(codes({ amount: 1n }, bad)).toEqual(["block:POLICY_LIMIT_INVALID"]);
  });
});

describe("tool permission", () => {
  const send = { name: "create_transaction", toolset: "transactions" as const, readOnly: false };
  const read = { name: "get_account", toolset: "read" as const, readOnly: true };
  it.each([
    ["read-only refuses a write", { read_only: true }, send, false],
    ["read-only allows a read", { read_only: true }, read, true],
    ["a denied tool", { tools: { deny: ["create_transaction"] } }, send, false],
    ["a tool outside the allow list", { tools: { allow: ["get_account"] } }, send, false],
    ["a toolset not enabled", { toolsets: ["read"] }, send, false],
    ["an enabled toolset", { toolsets: ["read", "transactions"] }, send, true],
  ])("%s", (_name, raw, tool, allowed) => {
    expect(toolPermission(Policy.parse(raw), tool).allowed).toBe(allowed);
  });
});

describe("who confirms a write", () => {
  const alice = { subject: "alice", groups: ["treasury"], roles: [] };
  const roles = (confirmation?: "person") => [{ name: "treasury", when: { groups: ["treasury"] }, ...(confirmation ? { confirmation } : {}) }];
  it("is whoever holds the token by default, the person when the policy or the person's role requires it", () => {
    expect(confirmationFor(Policy.parse({}), grantFor(Policy.parse({}), null))).toBe("token");
    expect(confirmationFor(Policy.parse({ confirmation: "person" }), grantFor(Policy.parse({}), null))).toBe("person");
    const narrowed = Policy.parse({ roles: roles("person") });
    expect(confirmationFor(narrowed, grantFor(narrowed, alice))).toBe("person");
    const plain = Policy.parse({ confirmation: "person", roles: roles() });
    expect(confirmationFor(plain, grantFor(plain, alice))).toBe("person");
  });
  it("refuses a role that would loosen it, and a mode it does not know, naming the field", () => {
    expect(Policy.safeParse({ roles: [{ name: "r", when: { groups: ["g"] }, confirmation: "token" }] }).error?.issues[0]?.path).toEqual([
      "roles",
      0,
      "confirmation",
    ]);
    expect(Policy.safeParse({ confirmation: "model" }).error?.issues[0]?.path).toEqual(["confirmation"]);
  });
});

describe("policy file", () => {
  const write = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), "policy-")), "policy.json");
    writeFileSync(path, text);
    return path;
  };
  it("loads a valid file", () => {
    expect(loadPolicyFile(write('{"read_only": true}')).read_only).toBe(true);
  });
  it.each([
    ["invalid JSON", "{", /is not valid JSON/],
    ["an unknown field", '{"max_amount": 5}', /Unrecognized key.*max_amount/],
    ["a limit with a float", '{"limits": {"polkadot": {"max_per_day": {"base_units": 5}}}}', /limits\.polkadot\.max_per_day/],
  ])("refuses %s, naming the field", (_name, text, message) => {
    expect(() => loadPolicyFile(write(text))).toThrow(message);
  });
  it("refuses a missing file", () => {
    expect(() => loadPolicyFile("/nonexistent/policy.json")).toThrow(/cannot be read \(ENOENT\)/);
  });
});

describe.each(PLANTED)("a policy file's name holding %s", (planted) => {
  it("stops the start with the file and the rule named, never waiting on it nor reading it whole", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "custody-policy-planted-")), "policy.json");
    writeFileSync(path, JSON.stringify({ read_only: true }));
    const refused = await withPlanted(path, planted, POLICY_FILE_MAX_BYTES, () => {
      try {
        loadPolicyFile(path);
        return null;
      } catch (error) {
        return error;
      }
    });
    expect(refused).toBeInstanceOf(PolicyFileError);
    expect((refused as Error).message).toContain(`policy file ${path}: ${ruleOf(planted)}`);
  });
});
