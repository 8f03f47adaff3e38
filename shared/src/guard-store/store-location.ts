/** Whether a store setting names a PostgreSQL database (a postgres:// URL) rather than a file of the embedded store. */
export function isDatabaseUrl(setting: string): boolean {
  return /^postgres(ql)?:\/\//i.test(setting);
}
