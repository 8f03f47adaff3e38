import { CustodyApiError } from "./errors.js";

/** The answer of a read, or undefined when the service answers 404 (nothing by that id or name); any other failure is thrown. */
export async function unlessNotFound<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof CustodyApiError && error.status === 404) return undefined;
    throw error;
  }
}
