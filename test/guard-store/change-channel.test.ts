import { connect, createServer, type Socket } from "node:net";
import { CHANGE_CHANNEL, openPostgresChangeChannel, type PostgresChangeChannel } from "@custody/shared/postgres-store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../support/postgres-cluster.js";

// The change bus replicas share over PostgreSQL LISTEN/NOTIFY, two channels standing for two
// replicas' processes on one database.

let cluster: PostgresCluster;
let url: string;
beforeAll(async () => {
  cluster = await startPostgresCluster({ durable: false });
  url = cluster.createDatabase("changes");
}, 120_000);
afterAll(() => cluster?.stop());

const OURS = /^custody:\/\/(accounts|transactions)\/[1-9][0-9]*$/;

/** A channel with what its listeners heard and what it logged. */
async function replica(): Promise<{ channel: PostgresChangeChannel; heard: string[]; logged: string[]; next(): Promise<string> }> {
  const heard: string[] = [];
  const logged: string[] = [];
  const waiters: ((uri: string) => void)[] = [];
  const channel = await openPostgresChangeChannel(url, { accepts: (uri) => OURS.test(uri), log: (line) => logged.push(line) });
  channel.subscribe((uri) => {
    heard.push(uri);
    waiters.shift()?.(uri);
  });
  return { channel, heard, logged, next: () => new Promise((resolve) => waiters.push(resolve)) };
}

describe("the change bus over PostgreSQL LISTEN/NOTIFY", () => {
  it("tells the other process what one publishes, and its own listeners once; a payload that is not a URI of ours is dropped and logged", async () => {
    const [one, other] = [await replica(), await replica()];
    try {
      const arrived = other.next();
      one.channel.publish("custody://transactions/41");
      expect(await arrived).toBe("custody://transactions/41");
      expect(one.heard).toEqual(["custody://transactions/41"]);
      // Someone else on the database NOTIFYs the channel: only what is a URI of ours reaches a listener.
      const after = other.next();
      const afterOnFirst = one.next();
      cluster.psql(
        url.split("/").at(-1) as string,
        `SELECT pg_notify('${CHANGE_CHANNEL}', 'javascript:alert(1)'); SELECT pg_notify('${CHANGE_CHANNEL}', 'custody://accounts/7')`,
      );
      expect(await after).toBe("custody://accounts/7");
      expect(other.heard).toEqual(["custody://transactions/41", "custody://accounts/7"]);
      // The first channel's own NOTIFY came back to its connection before these (the database delivers in order), and was not heard twice.
      expect(await afterOnFirst).toBe("custody://accounts/7");
      expect(one.heard).toEqual(["custody://transactions/41", "custody://accounts/7"]);
      expect(other.logged.join("\n")).toContain(`change bus: dropped a notification on ${CHANGE_CHANNEL} that is not a resource URI of ours (19 characters)`);
    } finally {
      await one.channel.close();
      await other.channel.close();
    }
  });

  it("after a lost connection, listens again on one connection: an attempt the database drops at once is retried once, not twice", async () => {
    const database = cluster.createDatabase("reconnect");
    // A proxy in front of the database that forwards, or (down) accepts each connection and closes it at once, as a balancer with no database behind it does.
    let down = false;
    let dropped = 0;
    const forwarded = new Set<Socket>();
    const proxy = createServer((socket) => {
      if (down) {
        dropped += 1;
        if (dropped === 3) down = false;
        return void socket.destroy();
      }
      const upstream = connect(cluster.port, "127.0.0.1");
      forwarded.add(socket);
      socket.pipe(upstream).pipe(socket);
      for (const [one, other] of [
        [socket, upstream],
        [upstream, socket],
      ] as const) {
        one.on("error", () => other.destroy());
        one.on("close", () => other.destroy());
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as { port: number }).port;
    const logged: string[] = [];
    const channel = await openPostgresChangeChannel(database.replace(`:${cluster.port}/`, `:${port}/`), {
      accepts: (uri) => OURS.test(uri),
      log: (line) => logged.push(line),
    });
    try {
      down = true;
      for (const socket of forwarded) socket.destroy();
      await vi.waitFor(() => expect(logged.join("\n")).toContain(`listening on PostgreSQL channel ${CHANGE_CHANNEL} again`), { timeout: 20_000, interval: 50 });
      // One retry for the loss and one for each dropped attempt: before, a dropped attempt was
      // retried twice (its end event and its failed connect), and each retry forked again.
      expect(
        logged.filter((line) => / again in \d+ ms$/.test(line)),
        logged.join("\n"),
      ).toHaveLength(1 + dropped);
      const name = database.split("/").at(-1) as string;
      expect(cluster.psql(name, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'custody-mcp-changes'").trim()).toBe("1");
    } finally {
      await channel.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }, 30_000);
});
