import type { ChangeBus } from "@custody/shared";
import type { ServerEventBus } from "@modelcontextprotocol/server";

/**
 * The change bus as the SDK's listen streams take it: a resource's change is its
 * notifications/resources/updated. The server publishes no list changes (its tools, resources
 * and prompts are fixed for a person), so those are not carried.
 */
export function serverEventsOf(bus: ChangeBus): ServerEventBus {
  return {
    publish: (event) => {
      if (event.kind === "resource_updated") bus.publish(event.uri);
    },
    subscribe: (listener) => bus.subscribe((uri) => listener({ kind: "resource_updated", uri })),
  };
}
