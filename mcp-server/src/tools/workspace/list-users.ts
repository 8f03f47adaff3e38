import { delimitUntrusted, type UserRecord } from "@custody/shared";
import { z } from "zod";
import { CreatorView, creatorView } from "../../views/creator-view.js";
import { recordView } from "../../views/workspace-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { PageInfo, PageInput, toolOutput } from "../tool-output.js";

/** A user as listed: id, name, role, status, its creator by id and name; keys only when asked for. */
const UserKeys = { user_id: z.string(), pub_key: z.string(), key_handle: z.string() };
const UserView = z
  .looseObject({
    id: z.number(),
    username: z.string(),
    role: z.string(),
    status: z.string(),
    is_api: z.boolean(),
    created_by: CreatorView,
    created_on: z.string(),
  })
  .extend(z.object(UserKeys).partial().shape);

/** A user as listed: its creator by name; its device id, public key and key handle only when asked for. */
function userView(user: UserRecord, names: ReadonlyMap<number, string>, withKeys: boolean): z.infer<typeof UserView> {
  const { pub_key, key_handle, user_id, ...rest } = user;
  return {
    ...(recordView({ ...rest, ...(withKeys ? { user_id, pub_key, key_handle } : {}) }) as z.infer<typeof UserView>),
    created_by: creatorView(user.created_by, names),
  };
}

export const listUsers = defineTool({
  name: "list_users",
  title: "List workspace users",
  description: "Lists the workspace's users (people and API operators): id, name, role, status, creator. One page.",
  toolset: "read",
  input: { include_keys: z.boolean().optional().describe("Add user_id, pub_key, key_handle"), ...PageInput },
  output: toolOutput({ users: z.array(UserView), page_info: PageInfo }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const { include_keys: withKeys = false, ...query } = args;
    const page = await ctx.client.listUsers(query, { signal });
    const users = page.edges.map((edge) => edge.node);
    // Creators are named by id: on this page, or else one more read of every user.
    let names = new Map(users.map((user) => [user.id, user.username]));
    if (users.some((user) => user.created_by > 0 && !names.has(user.created_by))) {
      names = new Map((await ctx.client.listAllUsers({ signal, pageSize: 1000, maxPages: 10 })).map((user) => [user.id, user.username]));
    }
    const lines = users.map(
      (user) => `user ${user.id} ${delimitUntrusted("username", user.username)} ${user.role} ${user.status}${user.is_api ? " (API)" : ""}`,
    );
    return {
      structured: { users: users.map((user) => userView(user, names, withKeys)), page_info: page.page_info },
      text: [`${users.length} of ${page.page_info.count} users:`, ...lines].join("\n"),
    };
  },
});
