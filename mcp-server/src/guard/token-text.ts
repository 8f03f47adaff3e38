/**
 * The confirmation token travels once, in the text of the dry run (every client hands a model the
 * text; some hand it nothing else), in this one sentence; tests and scripts read it back with
 * tokenFromText.
 */
export function tokenSentence(tool: string, token: string, expiresAt: Date): string {
  return (
    `Show this to the person; only on their go-ahead, submit: call ${tool} again with the same arguments ` +
    `and confirmation_token "${token}" (once, until ${expiresAt.toISOString()}).`
  );
}

const TOKEN = /confirmation_token "(v2\.[0-9a-f]{32}\.[A-Za-z0-9_-]+)"/;

/** The token a dry run's text carries, or undefined. */
export function tokenFromText(text: string): string | undefined {
  return TOKEN.exec(text)?.[1];
}
