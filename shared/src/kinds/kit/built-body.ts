import { InvalidInputError } from "../../client/errors.js";
import { finding, type Finding } from "../../schemas/finding.js";

/** A request body a builder produced, or the blocking finding of the input it refused. */
export type BuiltBody<T> = { body: T; finding: null } | { body: null; finding: Finding };

/**
 * Runs a request builder; an input it refuses becomes a blocking REQUEST_INVALID finding naming
 * the fields, so the rules' own findings beside it still reach the person (a builder that threw
 * used to hide them). Any other error passes through.
 */
export function buildBody<T>(build: () => T): BuiltBody<T> {
  try {
    return { body: build(), finding: null };
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return { body: null, finding: finding("block", "REQUEST_INVALID", error.message, { fields: error.issues.map((issue) => issue.path).join(", ") }) };
  }
}

/** The findings of a build: the refusal, or none. */
export function buildFindings(built: BuiltBody<unknown>): Finding[] {
  return built.finding === null ? [] : [built.finding];
}

/** The body to send; a plan whose body could not be built is blocked, so it is never sent. */
export function bodyToSend<T>(built: BuiltBody<T>): T {
  if (built.finding !== null) throw new Error("unreachable: a write whose request could not be built is blocked and never sent");
  return built.body;
}

/** The build of a call that has no body. */
export const NO_BODY: BuiltBody<null> = { body: null, finding: null };
