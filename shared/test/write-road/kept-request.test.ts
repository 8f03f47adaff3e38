import { describe, expect, it } from "vitest";
import { boundedAuditInput } from "../../src/audit/audit-bounds.js";
import type { WriteRequest } from "../../src/kinds/registry.js";
import { keepRequest, keptRequestDifferences } from "../../src/write-road/kept-request.js";

const CONTRACT = `0x${"ab".repeat(20)}`;
/** Call data longer than an audit record keeps a string (1,024 characters): the record keeps its digest. */
const LONG_DATA = `0x${"c1".repeat(700)}`;

const stake = (over: Partial<Extract<WriteRequest, { kind: "ethereum_stake" }>> = {}): WriteRequest => ({
  kind: "ethereum_stake",
  account: "eth-staking",
  amount: 32_000_000_000_000_000_000n,
  contract: CONTRACT,
  contract_data: LONG_DATA,
  speed: "NORMAL",
  correlation_id: "cw-00000000000000000001",
  ...over,
});

/** The request as a write's trace keeps it: what its `reserved` audit record says, bounded as every record is. */
function asAudited(request: WriteRequest): unknown {
  const input = boundedAuditInput({
    surface: "mcp",
    event: "reserved",
    operator: "staking-bot",
    tool: "ethereum_stake",
    request_digest: null,
    details: { kept_request: keepRequest(request) },
  } as Parameters<typeof boundedAuditInput>[0]);
  return input.details?.kept_request;
}

describe("a kept request compared with a later call's", () => {
  it("as a trace keeps it (long call data as its digest): the same write is the same, another amount or call data differs", () => {
    const kept = asAudited(stake());
    expect(JSON.stringify(kept)).not.toContain(LONG_DATA);
    expect(keptRequestDifferences(kept, stake(), "Ethereum", "audited")).toEqual([]);
    expect(keptRequestDifferences(kept, stake({ amount: 33_000_000_000_000_000_000n }), "Ethereum", "audited")).toEqual(["amount"]);
    expect(keptRequestDifferences(kept, stake({ contract_data: `0x${"c2".repeat(700)}` }), "Ethereum", "audited")).toEqual(["contract_data"]);
  });

  it("says it cannot compare (null) a kept request it cannot read, never that the call asks for the same write", () => {
    expect(keptRequestDifferences({ omitted: { sha256: "0".repeat(64) } }, stake(), "Ethereum", "audited")).toBeNull();
    expect(
      keptRequestDifferences(asAudited(stake()), { kind: "send", account: "a", amount: 1n, recipient: CONTRACT, speed: "NORMAL" }, "Ethereum", "audited"),
    ).toBeNull();
  });
});
