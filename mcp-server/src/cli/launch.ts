// The bundle's entry: Node's compile cache is turned on before the server's modules are loaded
// (it applies to modules loaded after it), then the server starts (main.ts, a chunk of its own).
import { enableCompileCache } from "./compile-cache.js";

enableCompileCache();
await import("./main.js");
