import type { EmulatorContext } from "../context.js";
import { approveUser } from "../domain/operators/approve-user.js";
import { createApiUser } from "../domain/operators/create-api-user.js";
import { inviteUser } from "../domain/operators/invite-user.js";
import { registerUser } from "../domain/operators/register-user.js";
import { ADMINISTRATORS } from "./base-state.js";

/** The whole registration flow of the spec, ending with the operator ACTIVE. */
export async function registerOperator(ctx: EmulatorContext, name: string): Promise<void> {
  const apiUser = await createApiUser(ctx, name);
  const [inviter = "alice.admin", second = "bob.admin"] = ADMINISTRATORS;
  const invitation = await ctx.commit((tx) => inviteUser(tx, name, apiUser.device_id, inviter));
  await ctx.commit((tx) => registerUser(tx, name, invitation.uuid));
  await ctx.commit((tx) => approveUser(tx, name, inviter));
  await ctx.commit((tx) => approveUser(tx, name, second));
}
