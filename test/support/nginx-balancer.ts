import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDebianPackages, type Installed } from "./debian-packages.js";
import { freePort } from "./free-port.js";

/** Debian's nginx (package nginx, bookworm's 1.22). */
export const NGINX = "/usr/sbin/nginx";

/** Installs Debian's nginx when it is missing (see ensureDebianPackages); its system service is never used. */
export function nginxInstalled(): Installed {
  return ensureDebianPackages([{ name: "nginx", files: [NGINX] }]);
}

/** A replica behind the balancer: its id (the start of every session id it issues) and its loopback port. */
export interface Replica {
  id: string;
  port: number;
}

/**
 * The load balancer's part of the configuration (an http block's content), as docs/deployment.md
 * shows it. An initialize carries no session id yet: it goes to any live replica, and that replica
 * puts its own id at the start of the session id it creates; every later request of the session
 * is routed on that prefix to the same replica. (Hashing the session id alone would send the
 * initialize, which has none, to one replica and the session's next request to whichever replica
 * its id hashes to.) Only the ids listed here route anywhere: an id cannot name an address.
 */
export function balancerConfig(listen: string, replicas: readonly Replica[]): string {
  const pinned = replicas.map((replica) => `  upstream custody_${replica.id.replaceAll("-", "_")} { server 127.0.0.1:${replica.port}; }`).join("\n");
  const routes = replicas.map((replica) => `    ~^${replica.id}\\. custody_${replica.id.replaceAll("-", "_")};`).join("\n");
  return `  # An initialize (no session id yet): any live replica; one that refuses connections is skipped for 5 s.
  upstream custody_any {
${replicas.map((replica) => `    server 127.0.0.1:${replica.port} max_fails=1 fail_timeout=5s;`).join("\n")}
  }
  # Every later request of a session: the replica named at the start of its id.
${pinned}
  map $http_mcp_session_id $custody_upstream {
    default custody_any;
${routes}
  }
  server {
    listen ${listen};
    location = /mcp {
      proxy_pass http://$custody_upstream;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
      # Streamable HTTP answers and the GET stream are server-sent events: pass them on as they come.
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_connect_timeout 2s;
      # Another replica is tried only when the request could not be sent (nginx never re-sends a POST it sent).
      proxy_next_upstream error timeout;
      error_page 502 504 = @replica_gone;
    }
    # With people signing in (CUSTODY_AUTH_ISSUER): the protected resource metadata, the same on every replica.
    location ^~ /.well-known/oauth-protected-resource {
      proxy_pass http://custody_any;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
    }
    # Person mode's confirmation pages, their sign-in and its callback: any replica (nothing of them lives in one).
    location ^~ /confirm/ {
      proxy_pass http://custody_any;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
    }
    # The session's replica is gone: 404 is MCP's "initialize again", which lands on a live replica.
    location @replica_gone {
      default_type application/json;
      if ($http_mcp_session_id) {
        return 404 '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found: its replica stopped; initialize a new session"},"id":null}';
      }
      return 502 '{"jsonrpc":"2.0","error":{"code":-32000,"message":"No replica answers"},"id":null}';
    }
  }
`;
}

export interface NginxBalancer {
  port: number;
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  /** The whole nginx.conf it runs. */
  config: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * nginx started by the test with a configuration and prefix of its own in a temporary folder (not
 * the system service), in front of the replicas, listening on 127.0.0.1 on `port` (a free one when absent).
 */
export async function startNginxBalancer(replicas: readonly Replica[], port?: number): Promise<NginxBalancer> {
  const installed = nginxInstalled();
  if (!installed.ok) throw new Error(installed.reason);
  const listenPort = port ?? (await freePort());
  const prefix = mkdtempSync(join(tmpdir(), "custody-nginx-"));
  const temp = join(prefix, "temp");
  // Run as root, nginx's workers drop to nobody: the folders they write in must be open to it.
  mkdirSync(temp, { mode: 0o777 });
  const errorLog = join(prefix, "error.log");
  const config = `worker_processes 1;
pid ${join(prefix, "nginx.pid")};
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
${balancerConfig(`127.0.0.1:${listenPort}`, replicas)}}
`;
  const configPath = join(prefix, "nginx.conf");
  writeFileSync(configPath, config);
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", configPath, "-e", errorLog, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  process.once("exit", kill);
  const readLog = () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "");
  const deadline = Date.now() + 15_000;
  while (!(await accepts(listenPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      kill();
      throw new Error(`nginx did not start: ${stderr}${readLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port: listenPort,
    url: `http://127.0.0.1:${listenPort}/mcp`,
    config,
    errorLog: readLog,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
