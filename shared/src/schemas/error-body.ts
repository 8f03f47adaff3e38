import { z } from "zod";

/** The error body: `{ message, name, status_code }`. */
export const ErrorBody = z.looseObject({
  message: z.string(),
  name: z.string(),
  status_code: z.int(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The `name` of the 400 answered to an operator the module does not know. */
export const UNKNOWN_OPERATOR_ERROR_NAME = "UnknownApiUser";
