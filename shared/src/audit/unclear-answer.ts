import { z } from "zod";

/**
 * What came back from a POST whose outcome was left unknown, kept in its `ambiguous` record
 * (`details.answer`) and its write's trace: nothing (`lost`: a timeout, a connection that broke,
 * an abort), a server error that does not say whether the write was applied (`server_error`, a 5xx,
 * with its status), an answer that could not be read (`unreadable`), or a failure of the POST the
 * client could not class (`unexpected`). Only `lost` is a lost answer.
 */
// One object rather than a union of four: tools answer it (list_activity), and an output schema types each field once.
export const UnclearAnswer = z.object({
  kind: z.enum(["lost", "server_error", "unreadable", "unexpected"]),
  /** A server error's HTTP status (null when it was not read); absent for the other kinds. */
  http_status: z.int().nullable().optional(),
});
export type UnclearAnswer = z.infer<typeof UnclearAnswer>;

/** The answer an `ambiguous` record keeps, when it keeps one that parses (absent from records written before it was kept). */
export function unclearAnswerOf(details: Record<string, unknown> | undefined): { answer?: UnclearAnswer } {
  const parsed = UnclearAnswer.safeParse(details?.answer);
  return parsed.success ? { answer: parsed.data } : {};
}
