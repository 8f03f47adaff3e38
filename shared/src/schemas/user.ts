import { z } from "zod";
import { pageOf, Timestamp } from "./primitives.js";

export const UserStatus = z.enum(["PENDING_REGISTRATION", "PENDING_APPROVAL", "ACTIVE", "SUSPENDED", "REVOKED"]);
export type UserStatus = z.infer<typeof UserStatus>;

/** An element `node` of GET /users. */
export const UserRecord = z.looseObject({
  created_by: z.int(),
  created_on: Timestamp,
  id: z.int(),
  is_api: z.boolean(),
  key_handle: z.string(),
  last_request: z.int(),
  pub_key: z.string(),
  role: z.string(),
  status: UserStatus,
  user_id: z.string(),
  username: z.string(),
});
export type UserRecord = z.infer<typeof UserRecord>;

export const UserPage = pageOf(UserRecord);
export type UserPage = z.infer<typeof UserPage>;
