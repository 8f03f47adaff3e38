import { delimitUntrusted } from "@custody/shared";
import { z } from "zod";
import { workspaceView } from "../../views/workspace-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { Entity, PageInfo, PageInput, toolOutput } from "../tool-output.js";

export const listUsers = defineTool({
  name: "list_users",
  title: "List workspace users",
  description: "Lists the workspace's users (people and API operators) with role and status. Use to see who can approve. One page.",
  toolset: "read",
  input: PageInput,
  output: toolOutput({ users: z.array(Entity), page_info: PageInfo }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const page = await ctx.client.listUsers(args, { signal });
    const users = page.edges.map((edge) => edge.node);
    const lines = users.map((user) => `user ${user.id} ${delimitUntrusted("username", user.username)} ${user.role} ${user.status}${user.is_api ? " (API)" : ""}`);
    return {
      structured: { users: workspaceView(users), page_info: page.page_info },
      text: [`${users.length} of ${page.page_info.count} users:`, ...lines].join("\n"),
    };
  },
});
