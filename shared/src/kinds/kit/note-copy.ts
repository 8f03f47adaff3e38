import type { Note } from "../../schemas/primitives.js";

/** `{ note }` holding only title and content, or nothing when no note is given. */
export function noteField(note: Note | undefined): { note?: Note } {
  return note === undefined ? {} : { note: { title: note.title, content: note.content } };
}
