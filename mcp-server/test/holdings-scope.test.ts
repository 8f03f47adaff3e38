import { expect, it, onTestFinished } from "vitest";
import { control } from "./harness/control-plane.js";
import { directClient } from "./harness/demo-workspace.js";
import { call, demoHarness } from "./harness/mcp-harness.js";

// get_holdings with no account reads one page of accounts: on a workspace larger than that, its
// network totals are of that page, and the answer says so before them, not after every account.

const demo = demoHarness();

it("says its totals are of the first 100 accounts only, before the totals, on a workspace of more", async () => {
  // A hundred accounts read at once hang a hundred listeners on the call's signal: no leak, no warning.
  const warnings: string[] = [];
  const warned = (warning: Error) => warnings.push(warning.name);
  process.on("warning", warned);
  onTestFinished(() => void process.off("warning", warned));
  await control(demo.emulator, "POST", "/seed/scale", { accounts: 120, transactions: 0, prefix: "held-" });
  const accounts = (await directClient(demo.emulator).listAccounts({ page: 1, page_size: 1 })).page_info.count;
  expect(accounts).toBeGreaterThan(100);
  const answer = await call(demo.harness.client, "get_holdings", {});
  expect(answer.isError, answer.text).toBe(false);
  const [head, firstTotal] = answer.text.split("\n");
  expect(head).toMatch(
    new RegExp(`^Holdings as of \\S+ \\(the service's time\\), of the first 100 of ${accounts} accounts only \\(name an account for any other\\):$`),
  );
  expect(firstTotal).toMatch(/^Solana \(solana_testnet\), \d+ accounts: /);
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(warnings).not.toContain("MaxListenersExceededWarning");
}, 30_000);
