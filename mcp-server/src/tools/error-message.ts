/** The message a tool answers for a failure; shared's errors already name the field and the rule. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "AbortError") return "the call was cancelled before it completed";
    return error.message;
  }
  return String(error);
}
