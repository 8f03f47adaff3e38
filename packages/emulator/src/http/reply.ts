import { ErrorBody, stringifyJsonExact } from "@custody/shared";
import { z } from "zod";
import type { HttpError } from "./http-error.js";

export interface Reply {
  status: number;
  /** JSON text. */
  body: string;
  headers?: Readonly<Record<string, string>>;
}

/** Encodes the value with the schema (bigints to their wire form) and serialises it exactly. */
export function jsonReply<S extends z.ZodType>(schema: S, value: z.output<S>, status = 200): Reply {
  return { status, body: stringifyJsonExact(z.encode(schema, value)) };
}

/** For schemas that cannot encode (a preprocess step): checks the value against the schema and writes it as it is. */
export function checkedReply<S extends z.ZodType>(schema: S, value: z.input<S>, status = 200): Reply {
  schema.parse(value);
  return { status, body: stringifyJsonExact(value) };
}

export function errorReply(error: HttpError): Reply {
  const body: ErrorBody = { message: error.message, name: error.errorName, status_code: error.status };
  return { status: error.status, body: stringifyJsonExact(z.encode(ErrorBody, body)), headers: error.headers };
}
