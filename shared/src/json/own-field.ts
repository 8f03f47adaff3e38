/**
 * Sets an own data field as Object.fromEntries does, for the key "__proto__" too (which
 * assignment would take as the object's prototype): for code that copies a record key by key.
 */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
