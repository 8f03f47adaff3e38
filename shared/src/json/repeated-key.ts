/** A key one object of a JSON text names twice: the key, its path of keys (`limits.polkadot.max_per_day`), and whether the object is the outermost. */
export interface RepeatedKey {
  key: string;
  path: string;
  outermost: boolean;
}

/**
 * The first key an object of a JSON text names twice, or null. JSON.parse keeps the last of two
 * equal keys where another reader keeps the first or reads the first: a reviewer of a policy file
 * seeing `"read_only": true`, a balancer, gateway or log reading a request's `method`. Called on
 * text JSON.parse has accepted, so only strings, brackets and commas need following; keys are
 * compared decoded ("a" and "\u0061" are one key). Iterative: any depth.
 */
export function repeatedKey(text: string): RepeatedKey | null {
  // One entry per open bracket: the keys an object has named so far (null for an array), and the key it is the value of.
  const open: { keys: Set<string> | null; name: string }[] = [];
  let keyNext = false;
  let lastKey = "";
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === 0x22) {
      let end = at + 1;
      for (;;) {
        const quote = text.indexOf('"', end);
        let backslashes = 0;
        while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
        end = quote + 1;
        if (backslashes % 2 === 0) break;
      }
      const keys = open.at(-1)?.keys;
      if (keyNext && keys) {
        const key = JSON.parse(text.slice(at, end)) as string;
        if (keys.has(key)) {
          const path = [...open.map((level) => level.name).filter((name) => name !== ""), key].join(".");
          return { key, path, outermost: open.length === 1 };
        }
        keys.add(key);
        lastKey = key;
      }
      keyNext = false;
      at = end - 1;
    } else if (char === 0x7b || char === 0x5b) {
      open.push({ keys: char === 0x7b ? new Set() : null, name: lastKey });
      lastKey = "";
      keyNext = char === 0x7b;
    } else if (char === 0x7d || char === 0x5d) {
      open.pop();
      lastKey = "";
    } else if (char === 0x2c) keyNext = open.at(-1)?.keys != null;
  }
  return null;
}
