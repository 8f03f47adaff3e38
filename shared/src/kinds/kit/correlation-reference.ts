import { randomBytes } from "node:crypto";
import type { Note } from "../../schemas/primitives.js";

const PREFIX = "cw-";

/** A fresh reference, short enough to search for and unlikely to collide: 80 random bits. */
export function newCorrelationId(): string {
  return `${PREFIX}${randomBytes(10).toString("hex")}`;
}

export function isCorrelationId(text: string): boolean {
  return /^cw-[0-9a-f]{20}$/.test(text);
}

/** The marker of a reference in a note's content: the only place a look-up recognises it. */
export function referenceMarker(correlationId: string): string {
  return `[ref ${correlationId}]`;
}

/** The note with the reference appended to its content, so a label search finds the transaction. */
export function noteWithReference(note: Note | undefined, correlationId: string, defaultTitle: string): Note {
  const title = note?.title ?? defaultTitle;
  const content = note?.content ? `${note.content}\n${referenceMarker(correlationId)}` : referenceMarker(correlationId);
  return { title, content };
}

/** Whether a transaction's notes carry this reference as the guard wrote it (not a person's mention of it). */
export function carriesReference(notes: readonly Note[], correlationId: string): boolean {
  const marker = referenceMarker(correlationId);
  return notes.some((note) => note.content.includes(marker));
}

/** referenceMarker of any id newCorrelationId makes. */
const MARKED_REFERENCE = new RegExp(String.raw`\[ref (${PREFIX}[0-9a-f]{20})\]`, "g");

/** The references a transaction's notes carry as the guard's markers, in order (notes are anyone's text: some may be copies). */
export function referencesIn(notes: readonly Note[]): string[] {
  return notes.flatMap((note) => [...note.content.matchAll(MARKED_REFERENCE)].map((match) => match[1] as string));
}
