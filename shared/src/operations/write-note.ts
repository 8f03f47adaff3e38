import { z } from "zod";
import { InvalidInputError } from "../client/errors.js";
import { fieldIssues } from "../schemas/field-issues.js";
import { sanitizeUntrustedText } from "../untrusted/untrusted-text.js";

// Control (Cc), format (Cf: zero-width, bidirectional marks, overrides and isolates, BOM), surrogate
// and line/paragraph separator characters.
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

export const NOTE_TEXT_RULE = "must not contain invisible or bidirectional control characters";

/** "U+202E". */
function codePointOf(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Why a note text cannot be sent, or undefined: it holds a character that is invisible, reorders
 * text or is one the display would remove (sanitizeUntrustedText), so that what a person is shown
 * at the dry run would not be what is sent and what approvers see in the workspace.
 */
export function noteTextProblem(text: string): string | undefined {
  let position = 0;
  for (const character of text) {
    position += 1;
    if (INVISIBLE_OR_CONTROL.test(character) || sanitizeUntrustedText(character) !== character) {
      return `${NOTE_TEXT_RULE} (found ${codePointOf(character)} at character ${position})`;
    }
  }
  return undefined;
}

const NoteText = z.string().superRefine((text, ctx) => {
  const problem = noteTextProblem(text);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
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
  if (!parsed.success) throw new InvalidInputError("write request", fieldIssues(parsed.error).map((issue) => ({ ...issue, path: `note.${issue.path}` })));
}
