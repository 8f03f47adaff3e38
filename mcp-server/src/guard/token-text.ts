/**
 * The confirmation token's sentence in the text of a token-mode dry run (every client hands a model
 * the text; some hand it nothing else); the structure gives it as `confirmation_token` besides.
 * tokenFromText reads it back from the text.
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
