// The guard's store in PostgreSQL and its driver: imported only when --store names a database
// (a chunk of the bundle of its own), so a start with the embedded store never loads them.
export { exportPostgresAudit, openPostgresChangeChannel, openPostgresGuardStore, resealPostgresAudit, verifyPostgresAudit, verifySealedPostgresAudit } from "@custody/shared/postgres-store";
