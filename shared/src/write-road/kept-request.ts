import { WriteRequest, writeSpec, type WriteKind } from "../kinds/registry.js";

/** A request as a sealed intent keeps it: JSON, its amounts (its spec's amountFields) as digit strings. */
export function keepRequest(request: WriteRequest): Record<string, unknown> {
  const fields = writeSpec(request.kind).amountFields;
  return Object.fromEntries(Object.entries(request).map(([key, value]) => [key, fields.includes(key) && typeof value === "bigint" ? value.toString() : value]));
}

/** The request keepRequest kept, its amounts in base units again, checked by the request schema. */
export function keptRequest(kept: unknown): WriteRequest {
  const record = kept as Record<string, unknown>;
  const fields = writeSpec(record.kind as WriteKind).amountFields;
  return WriteRequest.parse(
    Object.fromEntries(
      Object.entries(record).map(([key, value]) => [
        key,
        fields.includes(key) && typeof value === "string" && /^[0-9]{1,80}$/.test(value) ? BigInt(value) : value,
      ]),
    ),
  );
}
