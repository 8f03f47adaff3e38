import { localText } from "../l10n/translate.js";
import { parseJsonExact } from "../json/exact-json.js";
import type { ErrorBody as ErrorBodyType } from "../schemas/error-body.js";
import { ErrorBody, UNKNOWN_OPERATOR_ERROR_NAME } from "../schemas/error-body.js";
import type { ResponseHeaders } from "./attempt.js";
import type { ApiErrorInit, HttpMethod } from "./errors.js";
import { CustodyApiError, RateLimitedError, trimForError, UnknownOperatorError } from "./errors.js";
import { parseRetryAfterMs } from "./retry-delay.js";
import { delimitUntrusted } from "../untrusted/untrusted-text.js";

export interface FailedResponse {
  method: HttpMethod;
  path: string;
  status: number;
  headers: ResponseHeaders;
  text: string;
  attempts: number;
}

/** The error body when the text is one, else undefined. */
export function readErrorBody(text: string): ErrorBodyType | undefined {
  let json: unknown;
  try {
    json = parseJsonExact(text);
  } catch {
    return undefined;
  }
  const parsed = ErrorBody.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

const UNKNOWN_WORDING = /\b(unknown|not known|not registered|unregistered)\b/i;
const OPERATOR_WORDING = /\b(operator|user|api[ _-]?user)\b/i;

function saysOperatorUnknown(body: ErrorBodyType | undefined, text: string): boolean {
  if (body?.name === UNKNOWN_OPERATOR_ERROR_NAME) return true;
  const message = body?.message ?? text;
  return UNKNOWN_WORDING.test(message) && OPERATOR_WORDING.test(message);
}

export const RATE_LIMIT_STATUSES: ReadonlySet<number> = new Set([420, 429]);

/** The typed error for a response whose status is not a success. */
export function apiErrorFromResponse(response: FailedResponse, operator: string, checkBeforeRetry = false): CustodyApiError {
  const errorBody = readErrorBody(response.text);
  const init: ApiErrorInit = {
    method: response.method,
    path: response.path,
    status: response.status,
    body: errorBody ?? trimForError(response.text),
    attempts: response.attempts,
    checkBeforeRetry,
  };
  if (response.status === 400 && saysOperatorUnknown(errorBody, response.text)) return new UnknownOperatorError(init, operator);
  if (RATE_LIMIT_STATUSES.has(response.status)) {
    return new RateLimitedError(init, parseRetryAfterMs(response.headers.get("retry-after")));
  }
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get("location");
    return new CustodyApiError(
      init,
      localText(
        "{0} {1} answered a redirect (HTTP {2}{3}); the client does not follow redirects: check baseUrl",
        response.method,
        response.path,
        response.status,
        location ? localText(" to {0}", delimitUntrusted("location", trimForError(location))) : "",
      ),
    );
  }
  return new CustodyApiError(init);
}
