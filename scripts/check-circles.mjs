// Fails when a package's source has an import circle: between two files (madge's --circular), or between two
// top-level folders of src that import each other (madge's graph folded to folders). Run by `pnpm lint`.
import madge from "madge";

const PACKAGES = ["shared/src", "mcp-server/src", "packages/emulator/src", "extension/src"];
// Being regrouped into family folders (issue 22); their circle goes with that move.
const EXCLUDED_FOLDERS = new Set(["shared/src/writes", "shared/src/requests", "shared/src/rules", "shared/src/operations"]);
// Circles still to break (issue 22), as reported below; one that is gone must leave this list, so it only shrinks.
const KNOWN = new Set([]);

/** The top-level folder of src a file is in; a file directly in src stands for itself and is no folder. */
function folderOf(file) {
  const slash = file.indexOf("/");
  return slash < 0 ? null : file.slice(0, slash);
}

/** Pairs of folders where each imports the other, with one import of each direction as evidence. */
function mutualFolders(graph, root) {
  const imports = new Map();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a === null || b === null || a === b) continue;
      if (EXCLUDED_FOLDERS.has(`${root}/${a}`) || EXCLUDED_FOLDERS.has(`${root}/${b}`)) continue;
      const key = `${a}\0${b}`;
      if (!imports.has(key)) imports.set(key, `${from} -> ${to}`);
    }
  }
  const pairs = [];
  for (const [key, evidence] of imports) {
    const [a, b] = key.split("\0");
    if (a < b && imports.has(`${b}\0${a}`)) pairs.push({ pair: `${a} <-> ${b}`, evidence: `${evidence}; ${imports.get(`${b}\0${a}`)}` });
  }
  return pairs;
}

const found = [];
for (const root of PACKAGES) {
  const result = await madge(root, { fileExtensions: ["ts"], detectiveOptions: { ts: { skipTypeImports: false } } });
  for (const circle of result.circular()) found.push({ key: `${root}: ${circle.join(" -> ")}`, text: `files import each other: ${circle.join(" -> ")}` });
  for (const { pair, evidence } of mutualFolders(result.obj(), root))
    found.push({ key: `${root}: ${pair}`, text: `folders import each other: ${pair}: ${evidence}` });
}
let failures = 0;
for (const { key, text } of found) {
  if (KNOWN.has(key)) continue;
  failures++;
  console.error(`${key.slice(0, key.indexOf(":"))}: ${text}`);
}
for (const key of KNOWN) {
  if (found.some((circle) => circle.key === key)) continue;
  failures++;
  console.error(`${key}: gone; remove it from KNOWN in scripts/check-circles.mjs`);
}
if (failures > 0) {
  console.error(`${failures} import circle(s): move the shared type or helper to the lower layer`);
  process.exit(1);
}
console.log(`no import circles in ${PACKAGES.join(", ")}`);
