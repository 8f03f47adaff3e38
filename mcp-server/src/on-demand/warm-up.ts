import { performance } from "node:perf_hooks";
import { accountDirectoryOf, errorMessage } from "@custody/shared";
import { loadTool } from "../tools/load-tool.js";
import type { DeferredContext } from "../server/server-context.js";

/**
 * Builds what every process keeps and its first calls would otherwise wait for (a Streamable HTTP
 * server right after it listens, a stdio server after its first tools/list answer): the context
 * (client, guard store, tokens), the tools, and the directory of account names (one listing of
 * every account). A call that comes first waits for it as it would have waited for its own. A
 * context that fails to build is the calls' to report (ctx.load() keeps its failure); a listing
 * that fails is made again by the first resolution by name.
 */
export function warmUp(ctx: DeferredContext, log: (line: string) => void): void {
  const started = performance.now();
  ctx
    .load()
    .then(async (loaded) => {
      await loadTool("get_account");
      const accounts = await accountDirectoryOf(loaded.client).current();
      log(`warmed up in ${Math.round(performance.now() - started)} ms: the tools, the context and the names of ${accounts.length} accounts`);
    })
    .catch((error: unknown) => log(`warm-up: ${errorMessage(error)}`));
}
