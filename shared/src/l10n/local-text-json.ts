import { z } from "zod";
import type { LocalText } from "./translate.js";

/** A text read back from a store is written by this machine's surfaces, but bounded all the same: every part, and how deep its values nest. */
const TEXT_LIMITS = { template: 2_000, value: 4_096, args: 16, depth: 48 } as const;

function isLocalText(value: unknown, depth: number): value is LocalText {
  if (depth > TEXT_LIMITS.depth || typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { template, args, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof template !== "string" || template.length > TEXT_LIMITS.template) return false;
  if (!Array.isArray(args) || args.length > TEXT_LIMITS.args) return false;
  return args.every((arg: unknown) =>
    typeof arg === "string" ? arg.length <= TEXT_LIMITS.value : typeof arg === "number" ? Number.isFinite(arg) : isLocalText(arg, depth + 1),
  );
}

/**
 * A LocalText as JSON (`{ template, args }`, values strings, numbers or texts): how text a person
 * reads travels beside its English rendering into a store or an answer, so the surface that shows
 * it later renders it in its reader's language.
 */
export const LocalTextJson = z.custom<LocalText>((value) => isLocalText(value, 0), {
  message:
    `must be a text { template, args }: a template of at most ${TEXT_LIMITS.template} characters, at most ${TEXT_LIMITS.args} values ` +
    `(strings of at most ${TEXT_LIMITS.value} characters, numbers or texts), nested at most ${TEXT_LIMITS.depth} deep`,
});
