// What the first tool call needs and a start does not: the context builder (client, audit log,
// tokens) and the tools. One module, imported on demand, so that the bundle splits into few chunk
// files: each file a start has to load costs it time.
export { buildContext } from "../server/build-context.js";
export { ALL_TOOLS } from "../tools/inventory.js";
