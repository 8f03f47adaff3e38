// Fails when a package's source has an import circle: between files (madge's --circular), or between top-level
// folders of src, two or more, that import each other round (madge's graph folded to folders). Run by `pnpm lint`.
import madge from "madge";

const PACKAGES = ["shared/src", "mcp-server/src", "packages/emulator/src", "extension/src"];
// Circles still to break (issue 22), as reported below; one that is gone must leave this list, so it only shrinks.
const KNOWN = new Set([]);

/** The top-level folder of src a file is in; a file directly in src stands for itself and is no folder. */
function folderOf(file) {
  const slash = file.indexOf("/");
  return slash < 0 ? null : file.slice(0, slash);
}

/** The folder graph: for each folder the folders it imports, each with one import as evidence. */
function folderGraph(graph) {
  const edges = new Map();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a === null || b === null || a === b) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, `${from} -> ${to}`);
    }
  }
  return edges;
}

/** Groups of folders that import each other round (strongly connected, two or more), each with the imports that close it. */
function folderCircles(graph) {
  const edges = folderGraph(graph);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (folder) => {
    index.set(folder, next);
    low.set(folder, next++);
    stack.push(folder);
    onStack.add(folder);
    for (const to of edges.get(folder)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder), low.get(to)));
      } else if (onStack.has(to)) low.set(folder, Math.min(low.get(folder), index.get(to)));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of edges.keys()) if (!index.has(folder)) visit(folder);
  return groups.map((group) => {
    const inside = group.flatMap((a) => [...(edges.get(a) ?? [])].filter(([b]) => group.includes(b)).map(([, evidence]) => evidence));
    return { circle: group.join(" <-> "), evidence: inside.join("; ") };
  });
}

const found = [];
for (const root of PACKAGES) {
  const result = await madge(root, { fileExtensions: ["ts"], detectiveOptions: { ts: { skipTypeImports: false } } });
  for (const circle of result.circular()) found.push({ key: `${root}: ${circle.join(" -> ")}`, text: `files import each other: ${circle.join(" -> ")}` });
  for (const { circle, evidence } of folderCircles(result.obj()))
    found.push({ key: `${root}: ${circle}`, text: `folders import each other round: ${circle}: ${evidence}` });
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
