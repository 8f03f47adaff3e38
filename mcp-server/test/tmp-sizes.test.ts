import { it } from "vitest";
import { connectHarness, startTestEmulator } from "./harness/mcp-harness.js";
it("sizes", async () => {
  const emulator = await startTestEmulator();
  const h = await connectHarness(emulator);
  const list = await h.client.listTools();
  console.log("TOTAL", JSON.stringify(list).length / 4);
  for (const t of list.tools) console.log(t.name, JSON.stringify(t).length, JSON.stringify(t.inputSchema).length, JSON.stringify(t.outputSchema).length, t.description?.length);
  await h.close(); await emulator.close();
});
