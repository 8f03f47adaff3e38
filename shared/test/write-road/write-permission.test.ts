import { describe, expect, it } from "vitest";
import { Policy } from "../../src/policy/policy.js";
import { renderText } from "../../src/l10n/translate.js";
import { writePermission } from "../../src/write-road/write-permission.js";

const send = { tool: "create_transaction", toolset: "transactions", title: "Send funds" } as const;
const policy = Policy.parse({
  roles: [
    { name: "treasury", when: { groups: ["treasury"] }, operator: "treasury-bot" },
    { name: "viewers", when: { groups: ["viewers"] }, read_only: true },
  ],
});

describe("who may make a write through a road", () => {
  it("a person whose role allows the tool, on the road of the operator the role acts as", () => {
    expect(writePermission(policy, send, { subject: "alice", groups: ["treasury"], roles: [] }, "treasury-bot")).toBeNull();
  });

  it("not through another operator's road", () => {
    expect(renderText(writePermission(policy, send, { subject: "alice", groups: ["treasury"], roles: [] }, "staking-bot") ?? { template: "", args: [] })).toBe(
      "this write would be made as operator staking-bot, but your role acts as treasury-bot",
    );
  });

  it("not a person whose role is read-only: the policy's reason", () => {
    expect(renderText(writePermission(policy, send, { subject: "vic", groups: ["viewers"], roles: [] }, "treasury-bot") ?? { template: "", args: [] })).toBe(
      "your role viewers (local policy) is read-only: no write is allowed",
    );
  });
});
