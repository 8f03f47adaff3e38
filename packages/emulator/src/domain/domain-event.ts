/** What a commit tells the outside world about (delivered by webhooks once the commit is on disk). */
export interface DomainEvent {
  /** Event kind, e.g. TRANSACTION_BROADCAST, ADD_USER, EDIT_WHITELIST. */
  kind: string;
  /** Simulated time of the change. */
  at_ms: number;
  data: Record<string, unknown>;
}
