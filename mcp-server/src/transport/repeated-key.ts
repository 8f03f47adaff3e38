/** A key named twice in one object, and whether that object is the outermost one (a JSON-RPC message's own fields). */
export interface RepeatedKeyFound {
  key: string;
  outermost: boolean;
}

/**
 * The first key an object of a JSON text names twice, or null. JSON.parse keeps the last of two
 * equal keys where another reader may keep the first: a balancer, a gateway or a log that routes
 * or checks on `method`, `params.name` or a tool's `amount` could read a different request from the
 * one this server runs. Called on text JSON.parse has accepted, so only strings, brackets and
 * commas need following; keys are compared decoded ("a" and "\u0061" are one key).
 */
export function repeatedKey(text: string): RepeatedKeyFound | null {
  // One entry per open bracket: the keys an object has named so far, null for an array.
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === 0x22) {
      let end = at + 1;
      for (;;) {
        const next = text.indexOf('"', end);
        let backslashes = 0;
        while (text.charCodeAt(next - 1 - backslashes) === 0x5c) backslashes += 1;
        end = next + 1;
        if (backslashes % 2 === 0) break;
      }
      const keys = open.at(-1);
      if (keyNext && keys) {
        const key = JSON.parse(text.slice(at, end)) as string;
        if (keys.has(key)) return { key, outermost: open.length === 1 };
        keys.add(key);
      }
      keyNext = false;
      at = end - 1;
    } else if (char === 0x7b) {
      open.push(new Set());
      keyNext = true;
    } else if (char === 0x5b) {
      open.push(null);
    } else if (char === 0x7d || char === 0x5d) {
      open.pop();
    } else if (char === 0x2c) {
      keyNext = open.at(-1) instanceof Set;
    }
  }
  return null;
}
