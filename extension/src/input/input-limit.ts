import { lengthProblem } from "@custody/shared";
import { translate } from "../output/translate.js";

/**
 * validateInput for a box: the length first ("amount: at most 97 characters, got 3000000"), so that
 * no other check (unit math, address rules, pre-flight) reads a text longer than the field can hold.
 */
export function limitedValidation<Verdict>(request: {
  limit: { field: string; max: number };
  validate?: (text: string) => Verdict | undefined;
}): (text: string) => string | Verdict | undefined {
  return (text) => lengthProblem(request.limit.field, text, request.limit.max, translate) ?? request.validate?.(text);
}
