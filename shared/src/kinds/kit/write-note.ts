import { z } from "zod";
import { InvalidInputError } from "../../client/errors.js";
import { fieldIssues } from "../../schemas/field-issues.js";
import { boundedText, INPUT_LIMITS } from "../../schemas/input-limits.js";
import { codePointName, isHiddenCharacter } from "../../untrusted/hidden-characters.js";

export const NOTE_TEXT_RULE = "must not contain invisible or bidirectional control characters";

/** A note's title and content are one line each: the display keeps tab and newline, a note does not. */
const LINE_CONTROL = new Set(["\t", "\n"]);

/**
 * Why a note text cannot be sent, or undefined: it holds a character the display would change
 * (isHiddenCharacter: dropped or shown escaped, so invisible, reordering or breaking text), or a
 * tab or newline, so that what a person is shown at the dry run is what is sent and what
 * approvers see in the workspace.
 */
export function noteTextProblem(text: string): string | undefined {
  let position = 0;
  for (const character of text) {
    position += 1;
    if (LINE_CONTROL.has(character) || isHiddenCharacter(character)) {
      return `${NOTE_TEXT_RULE} (found ${codePointName(character)} at character ${position})`;
    }
  }
  return undefined;
}

/** The guard writes a write's correlation reference into its note as this marker; a person's note may not imitate it. */
export const REFERENCE_MARKER = "[ref ";

const NoteText = boundedText(INPUT_LIMITS.note).superRefine((text, ctx) => {
  const problem = noteTextProblem(text);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  else if (text.toLowerCase().includes(REFERENCE_MARKER)) {
    ctx.addIssue({
      code: "custom",
      message: `must not contain "${REFERENCE_MARKER.trim()}": it marks the guard's correlation reference, by which a lost answer is recognised`,
    });
  }
});

/** The note a write asks for: title and content as shown at the dry run, every character visible. */
export const WriteNote = z.object({ title: NoteText, content: NoteText });
export type WriteNote = z.infer<typeof WriteNote>;

/**
 * Refuses a note with a character noteTextProblem names, under note.title or note.content: for a
 * surface that builds its WriteRequest without parsing it (planWrite calls this on every write).
 */
export function assertWriteNote(note: unknown): void {
  const parsed = WriteNote.safeParse(note);
  if (!parsed.success)
    throw new InvalidInputError(
      "write request",
      fieldIssues(parsed.error).map((issue) => ({ ...issue, path: `note.${issue.path}` })),
    );
}
