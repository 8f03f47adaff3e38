import { z } from "zod";
import { boundedText, INPUT_LIMITS } from "./input-limits.js";

export const OperatorName = boundedText(INPUT_LIMITS.operator_name)
  .min(1, { message: "must not be empty" })
  .regex(/^\S+$/, { message: "must contain no space" });

/**
 * An operator name a request can carry: it travels in the X-Vendor-API-User header, and a header
 * value beyond printable ASCII is not sent the same way by every client (latin-1 or UTF-8 bytes,
 * or refused), so such an operator could be created but never named.
 */
export const HeaderOperatorName = OperatorName.regex(/^[\x20-\x7e]+$/, {
  message: "must be printable ASCII (it is sent in the X-Vendor-API-User header)",
});

/**
 * The result of POST /api_users. One form of the answer spells the device key DEVICE_ID,
 * the other device_id: both are accepted and normalised to device_id. An answer carrying both
 * with different values is refused: which one the administrators must enter cannot be told.
 */
export const ApiUser = z.preprocess(
  (input, ctx) => {
    if (!input || typeof input !== "object" || Array.isArray(input) || !("DEVICE_ID" in input)) return input;
    const { DEVICE_ID, ...rest } = input as Record<string, unknown>;
    if ("device_id" in rest && rest.device_id !== DEVICE_ID) {
      ctx.addIssue({
        code: "custom",
        path: ["device_id"],
        message:
          `the answer carries both DEVICE_ID (${JSON.stringify(DEVICE_ID)}) and device_id ` +
          `(${JSON.stringify(rest.device_id)}), which differ: it must carry one device identifier`,
      });
      return z.NEVER;
    }
    return { ...rest, device_id: DEVICE_ID };
  },
  z.looseObject({
    device_id: z.string().min(1),
    name: OperatorName,
    role: z.string(),
    type_: z.string(),
    workspace: z.string(),
  }),
);
export type ApiUser = z.infer<typeof ApiUser>;

export const CreateApiUserRequest = z.looseObject({ name: HeaderOperatorName });
export type CreateApiUserRequest = z.infer<typeof CreateApiUserRequest>;

export const RegistrationResult = z.looseObject({ success: z.boolean() });
export type RegistrationResult = z.infer<typeof RegistrationResult>;
