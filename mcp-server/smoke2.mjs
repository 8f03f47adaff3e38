import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const transport = new StdioClientTransport({ command: "node", args: ["bin/custody-mcp.js"], stderr: "ignore" });
const client = new Client({ name: "smoke", version: "0" });
await client.connect(transport);
const list = await client.listTools();
for (const n of ["polkadot_unbond", "list_accounts"]) console.log(JSON.stringify(list.tools.find(t => t.name === n), null, 1));
await client.close();
