import type { SolanaStakeAction, WriteKind } from "@custody/shared";
import { chooseStake, type StakeChoice } from "../../input/pick-stake.js";
import type { Services } from "../../services.js";
import type { TreeNode } from "../../views/tree-node.js";
import { permitted } from "../permission-check.js";

/** The stake an action applies to, after the policy allowed the action at all. */
export async function stakeForAction(
  services: Services,
  node: TreeNode | undefined,
  kind: WriteKind,
  action: SolanaStakeAction,
  title: string,
): Promise<StakeChoice | undefined> {
  if (!permitted(services, kind)) return undefined;
  const { client } = services.connection.require();
  return chooseStake(client, services.prompter, node?.target, { title, action });
}
