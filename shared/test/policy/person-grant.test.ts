import { describe, expect, it } from "vitest";
import {
  checkPolicy,
  checkPolicyCurrencies,
  ClaimsError,
  Currency,
  describePerson,
  grantFor,
  grantOperator,
  limitSetsFor,
  Policy,
  personFromClaims,
  toolPermission,
  type Person,
} from "../../src/index.js";

const policy = Policy.parse({
  toolsets: ["read", "transactions", "solana_staking"],
  limits: { polkadot: { max_per_day: { base_units: "100" } } },
  team_limits: { polkadot: { max_per_day: { base_units: "50" } } },
  roles: [
    {
      name: "treasury",
      when: { groups: ["treasury-operators"] },
      operator: "treasury-bot",
      toolsets: ["read", "transactions"],
      limits: { polkadot: { max_per_day: { base_units: "20" } } },
    },
    { name: "stakers", when: { roles: ["staking"], subjects: ["svc-staking"] }, operator: "staking-bot", tools: { deny: ["solana_withdraw_stake"] } },
    { name: "viewers", when: { groups: ["treasury-viewers", "treasury-operators"] }, read_only: true },
  ],
});

const person = (subject: string, over: Partial<Person> = {}): Person => ({ subject, groups: [], roles: [], ...over });
const send = { name: "create_transaction", toolset: "transactions", readOnly: false } as const;
const stake = { name: "solana_create_stake", toolset: "solana_staking", readOnly: false } as const;
const read = { name: "list_accounts", toolset: "read", readOnly: true } as const;

describe("roles in the policy", () => {
  it("gives a person the first role that matches a group, a role or the subject", () => {
    // Alice is in both treasury-operators and (through the same group) viewers: the first role wins.
    expect(grantFor(policy, person("alice", { groups: ["treasury-operators"] })).role?.name).toBe("treasury");
    expect(grantFor(policy, person("sam", { roles: ["staking"] })).role?.name).toBe("stakers");
    expect(grantFor(policy, person("svc-staking")).role?.name).toBe("stakers");
    expect(grantFor(policy, person("victor", { groups: ["treasury-viewers"] })).role?.name).toBe("viewers");
  });

  it("gives a person no role matches nothing at all, and a single user the whole policy", () => {
    const mallory = person("mallory", { groups: ["contractors"] });
    expect(toolPermission(policy, read, mallory)).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^no role of the local policy matches you \(subject mallory; groups contractors; roles none\)/),
    });
    expect(toolPermission(policy, stake, null)).toEqual({ allowed: true });
    // A policy without roles: every signed-in person has it whole.
    expect(toolPermission(Policy.parse({}), stake, mallory)).toEqual({ allowed: true });
  });

  it("only narrows the policy: a role's toolsets, tools and read-only mode on top of the policy's own", () => {
    const alice = person("alice", { groups: ["treasury-operators"] });
    expect(toolPermission(policy, send, alice)).toEqual({ allowed: true });
    expect(toolPermission(policy, stake, alice)).toMatchObject({
      allowed: false,
      reason: "your role treasury (local policy) does not enable the toolset solana_staking",
    });
    const sam = person("sam", { roles: ["staking"] });
    expect(toolPermission(policy, stake, sam)).toEqual({ allowed: true });
    expect(toolPermission(policy, { name: "solana_withdraw_stake", toolset: "solana_staking", readOnly: false }, sam)).toMatchObject({
      allowed: false,
      reason: "your role stakers (local policy) denies the tool solana_withdraw_stake",
    });
    // The policy's own toolsets still bind a role that names none.
    expect(toolPermission(policy, { name: "ethereum_stake", toolset: "ethereum_staking", readOnly: false }, sam)).toMatchObject({
      allowed: false,
      reason: "the local policy does not enable the toolset ethereum_staking",
    });
    const victor = person("victor", { groups: ["treasury-viewers"] });
    expect(toolPermission(policy, read, victor)).toEqual({ allowed: true });
    expect(toolPermission(policy, send, victor)).toMatchObject({
      allowed: false,
      reason: "your role viewers (local policy) is read-only: no write is allowed",
    });
  });

  it("names the operator each role acts as, and the limits a write counts against: the operator's, the person's, the team's", () => {
    const alice = person("alice", { groups: ["treasury-operators"] });
    const grant = grantFor(policy, alice);
    expect(grantOperator(grant, "server-bot")).toBe("treasury-bot");
    expect(grantOperator(grantFor(policy, null), "server-bot")).toBe("server-bot");
    expect(limitSetsFor(policy, grant, "treasury-bot").map((set) => [set.scope, set.field, set.code])).toEqual([
      [{ kind: "operator", operator: "treasury-bot" }, "limits", "POLICY_"],
      [{ kind: "person", subject: "alice" }, "roles[treasury].limits", "POLICY_PERSON_"],
      [{ kind: "team" }, "team_limits", "POLICY_TEAM_"],
    ]);
    // A single user has no per-person limit.
    expect(limitSetsFor(policy, grantFor(policy, null), "server-bot").map((set) => set.scope.kind)).toEqual(["operator", "team"]);
  });

  it("checks each set's maximum per transaction and daily maximum, with codes naming whose limit it is", () => {
    const dot = Currency.parse({
      name: "polkadot",
      units: [
        { code: "planck", magnitude: 0 },
        { code: "DOT", magnitude: 10 },
      ],
    });
    const sets = Policy.parse({
      limits: { polkadot: { max_per_transaction: { base_units: "100" } } },
      team_limits: { polkadot: { max_per_transaction: { base_units: "30" }, max_per_day: { base_units: "1000" } } },
      roles: [{ name: "treasury", when: { groups: ["treasury-operators"] }, limits: { polkadot: { max_per_transaction: { base_units: "50" } } } }],
    });
    const alice = person("alice", { groups: ["treasury-operators"] });
    const codes = (amount: bigint, spent: bigint) =>
      checkPolicy(
        sets,
        { currency: dot, network: "Polkadot", amount, limits: limitSetsFor(sets, grantFor(sets, alice), "ops").map((set) => ({ set, spentLast24h: spent })) },
        grantFor(sets, alice).role,
      )
        .filter((finding) => finding.severity === "block")
        .map((finding) => finding.code);
    expect(codes(30n, 0n)).toEqual([]);
    expect(codes(40n, 0n)).toEqual(["POLICY_TEAM_MAX_PER_TRANSACTION"]);
    expect(codes(60n, 0n)).toEqual(["POLICY_PERSON_MAX_PER_TRANSACTION", "POLICY_TEAM_MAX_PER_TRANSACTION"]);
    expect(codes(101n, 0n)).toEqual(["POLICY_MAX_PER_TRANSACTION", "POLICY_PERSON_MAX_PER_TRANSACTION", "POLICY_TEAM_MAX_PER_TRANSACTION"]);
    expect(codes(10n, 995n)).toEqual(["POLICY_TEAM_MAX_PER_DAY"]);
  });

  it("blocks every write while a team's or a role's limit names no currency of the workspace", async () => {
    const typo = Policy.parse({
      team_limits: { DOT: { max_per_day: { base_units: "1" } } },
      roles: [{ name: "treasury", when: { groups: ["g"] }, limits: { SOL: { max_per_day: { base_units: "1" } } } }],
    });
    const findings = await checkPolicyCurrencies(typo, async () => undefined);
    expect(findings.map((finding) => [finding.code, finding.facts.field])).toEqual([
      ["POLICY_LIMIT_UNKNOWN_CURRENCY", "team_limits.DOT"],
      ["POLICY_LIMIT_UNKNOWN_CURRENCY", "roles[treasury].limits.SOL"],
    ]);
  });

  it("refuses a policy file whose roles cannot be applied, naming the field", () => {
    expect(Policy.safeParse({ roles: [{ name: "x", when: {} }] }).error?.issues[0]).toMatchObject({
      path: ["roles", 0, "when"],
      message: "name at least one group, role or subject to match",
    });
    expect(
      Policy.safeParse({
        roles: [
          { name: "x", when: { groups: ["a"] } },
          { name: "x", when: { groups: ["b"] } },
        ],
      }).error?.issues[0],
    ).toMatchObject({ path: ["roles"], message: "role names must be unique" });
    expect(Policy.safeParse({ roles: [{ name: "x", when: { groups: ["a"] }, operator: "has space" }] }).success).toBe(false);
    expect(Policy.safeParse({ roles: [{ name: "x", when: { groups: ["a"] }, limit: {} }] }).success).toBe(false);
  });
});

describe("the person an access token names", () => {
  it("reads the subject, a name, the e-mail, the client and the memberships", () => {
    expect(
      personFromClaims({ sub: "u-1", preferred_username: "alice", email: "alice@example.com", azp: "desk", groups: ["a", "b"], roles: "Treasury Operators" }),
    ).toEqual({
      subject: "u-1",
      name: "alice",
      email: "alice@example.com",
      client: "desk",
      groups: ["a", "b"],
      // One string is one membership: "Operators" must not match members of "Treasury Operators".
      roles: ["Treasury Operators"],
    });
    // Entra ID's v1 tokens.
    expect(personFromClaims({ sub: "oid", upn: "alice@contoso.com", appid: "desk-app" })).toMatchObject({ name: "alice@contoso.com", client: "desk-app" });
  });

  it("keeps a name on one line: a provider's display name cannot forge a line of the audit summary", () => {
    const forged = personFromClaims({
      sub: "mallory",
      name: "x (subject nobody): 0 records\n  Alice Martin (subject alice): 40 records: 40 submitted\r\n\tMallory",
    });
    expect(forged.name).toBe("x (subject nobody): 0 records Alice Martin (subject alice): 40 records: 40 submitted Mallory");
    expect(describePerson({ subject: "a\nb", name: "line\none", email: "e\tf" })).toBe("line one <e f> (subject a b)");
  });

  it("refuses a token that names no one or whose memberships are not lists of names, and defuses hidden text", () => {
    expect(() => personFromClaims({ name: "x" })).toThrow(ClaimsError);
    expect(() => personFromClaims({ sub: "u", groups: [1] })).toThrow(/groups claim must be a list/);
    expect(() => personFromClaims({ sub: "u", groups: Array.from({ length: 300 }, (_, index) => `g${index}`) })).toThrow(/at most 256/);
    expect(() => personFromClaims({ sub: "x".repeat(300) })).toThrow(/sub claim must be a string of 1 to 256/);
    const shown = personFromClaims({ sub: "u", name: `Eve\u202Egnp.exe ${"x".repeat(500)}` });
    expect(shown.name).not.toContain("\u202E");
    expect(shown.name!.length).toBeLessThan(230);
  });
});
