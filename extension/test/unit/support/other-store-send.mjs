// Another process of the same operator with a guard store of its own (an assistant's MCP server, or
// another machine): it makes the dry run of a send, says "prepared", waits for a line on stdin, then
// confirms it and says how it ended. It runs shared as built (dist/), as the MCP server does.
//   node other-store-send.mjs <shared dist index.js> <base URL> <operator> <audit log> <account> <recipient> <lamports>
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [sharedIndex, baseUrl, operator, log, account, recipient, lamports] = process.argv.slice(2);
const { CustodyClient, DEFAULT_POLICY, FileGuardStore, WriteRoad } = await import(pathToFileURL(sharedIndex).href);
const store = new FileGuardStore(log);
const road = new WriteRoad({ client: new CustodyClient({ baseUrl, operator }), operator, policy: () => DEFAULT_POLICY, store, surface: "mcp" });
const request = { kind: "send", account, recipient, amount: BigInt(lamports), speed: "NORMAL" };
const actor = { session: "assistant", person: null };
const prepared = await road.prepare(request, { actor });
process.stdout.write(`${prepared.status}\n`);
if (prepared.status === "prepared") {
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once("line", resolve));
  lines.close();
  const sent = await road.commit(request, prepared.sealed.nonce, { actor, consent: { ask: () => Promise.resolve({ answer: "accepted" }) } });
  process.stdout.write(`${sent.status}\n`);
}
await store.close();
