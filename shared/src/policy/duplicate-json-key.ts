/**
 * The first key an object of valid JSON text gives twice, as a path (`limits.polkadot.max_per_day`),
 * or null. JSON.parse keeps the last of two equal keys, so a policy reading `"read_only": true` where
 * a reviewer looks could be loosened by a second `"read_only": false` further down. Iterative: any depth.
 */
export function duplicateJsonKey(text: string): string | null {
  const stack: Array<{ keys: Set<string> | null; name: string; expectKey: boolean }> = [];
  let pendingName = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    const top = stack.at(-1);
    if (char === "{" || char === "[") {
      stack.push({ keys: char === "{" ? new Set() : null, name: pendingName, expectKey: char === "{" });
      pendingName = "";
    } else if (char === "}" || char === "]") stack.pop();
    else if (char === "," && top?.keys != null) top.expectKey = true;
    else if (char === '"') {
      let end = index + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const literal = text.slice(index, end + 1);
      index = end;
      if (top?.keys == null || !top.expectKey) continue;
      const key = JSON.parse(literal) as string;
      const path = [...stack.map((level) => level.name).filter((name) => name !== ""), key].join(".");
      if (top.keys.has(key)) return path;
      top.keys.add(key);
      top.expectKey = false;
      pendingName = key;
    }
  }
  return null;
}
