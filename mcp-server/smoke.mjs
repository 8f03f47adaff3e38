import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const transport = new StdioClientTransport({ command: "node", args: ["bin/custody-mcp.js"], stderr: "inherit" });
const client = new Client({ name: "smoke", version: "0" });
await client.connect(transport);
console.log(client.getInstructions());
const list = await client.listTools();
const size = JSON.stringify(list).length;
console.log("tools", list.tools.length, "bytes", size, "tokens", size / 4);
for (const t of list.tools) console.log(t.name, JSON.stringify(t).length);
for (const [name, args] of [["health_check", {}], ["list_accounts", {}], ["list_users", {}]]) {
  const r = await client.callTool({ name, arguments: args });
  console.log(name, r.isError, r.content[0].text.slice(0, 1500));
}
await client.close();
