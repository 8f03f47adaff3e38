import { writeIdentity, type WriteKind } from "@custody/shared";
import type { Services } from "../services.js";
import { notify } from "../output/notify.js";

/** Refuses at once, before any input is asked, a write the local policy does not allow. The guard asks again before sending. */
export function permitted(services: Services, kind: WriteKind): boolean {
  const permission = services.guard.permits(kind);
  if (permission.allowed) return true;
  services.output.warn(`${kind}: refused by the local policy: ${permission.reason}`);
  void services.audit.record({ operator: services.connection.require().target.operator, tool: writeIdentity(kind).tool, event: "refused", request_digest: null, error: permission.reason, details: { reason: "permission" } });
  void notify("error", `Custody: refused by the local policy: ${permission.reason}`);
  return false;
}
