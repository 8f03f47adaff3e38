// What only some starts need: the embedded emulator (no base URL), the Streamable HTTP transport
// (--http) and the audit log check (verify-audit). One module, imported on demand (see
// call-time-modules.ts).
export { verifyAuditCommand } from "../audit/verify-audit-command.js";
export { startEmbeddedWorkspace } from "../embedded/embedded-workspace.js";
export { startHttpServer } from "../transport/http-server.js";
