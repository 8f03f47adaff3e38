import type { UserRecord } from "@custody/shared";
import { isoWithNumericOffset } from "../clock/timestamps.js";
import type { UserRow } from "../store/state-types.js";

export function userRecord(user: UserRow): UserRecord {
  return {
    created_by: user.created_by,
    created_on: isoWithNumericOffset(user.created_on_ms),
    id: user.id,
    is_api: user.is_api,
    key_handle: user.key_handle,
    last_request: user.last_request,
    pub_key: user.pub_key,
    role: user.role,
    status: user.status,
    user_id: user.user_id,
    username: user.username,
  };
}
