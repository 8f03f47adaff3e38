// The bundle's entry: Node's compile cache is turned on before the server's modules are loaded
// (it applies to modules loaded after it); over stdio the opening front answers the client's
// opening from the answers cache, where it holds them, before the server is loaded; then the
// server starts (main.ts, a chunk of its own).
import { fileURLToPath } from "node:url";
import { openingFront } from "../opening/opening-front.js";
import { enableCompileCache, privateCacheDirectory } from "./compile-cache.js";

enableCompileCache();
await openingFront({ entry: fileURLToPath(import.meta.url), answersDirectory: () => privateCacheDirectory("opening-answers") });
await import("./main.js");
