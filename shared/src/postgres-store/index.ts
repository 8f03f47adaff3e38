// `@custody/shared/postgres-store`: the guard's store in PostgreSQL. A subpath of its own, so that
// what does not use it (the extension, the embedded default) never loads the driver.
export { DatabaseTarget } from "./database-url.js";
export { PostgresGuardStore, type PostgresStoreOptions } from "./postgres-guard-store.js";
export { openPostgresGuardStore } from "./open-postgres-store.js";
export { exportPostgresAudit, resealPostgresAudit, verifyPostgresAudit, verifySealedPostgresAudit } from "./audit-export.js";
export { MIGRATIONS, SEAL_VERSION } from "./schema-migrations.js";
export { writeTableSeal } from "./table-seal.js";
export { CHANGE_CHANNEL, openPostgresChangeChannel, PostgresChangeChannel, type ChangeChannelOptions } from "./change-channel.js";
