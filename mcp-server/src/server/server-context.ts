import { grantFor, grantOperator, type CustodyClient, type GuardStore, type Person, type Policy, type WriteRoad } from "@custody/shared";
import type { ConfirmationTokens, TokenBinding } from "./confirmation-token.js";
import type { CurrencyBook } from "./currency-book.js";

/** A sign-in under way at the issuer, as the page's sign-in uses it: its PKCE verifier and its state. */
export interface PkceFlow {
  verifier: string;
  state: string;
}

/** How a team server's confirmation page signs a person in (confirm-page/page-sign-in.ts is the one). */
export interface ConfirmSignIn {
  /** Cookies get Secure when people reach the server over TLS. */
  readonly secure: boolean;
  /** Where the person's browser goes to sign in for this flow. */
  authorizationUrl(flow: PkceFlow): Promise<string>;
  /** The person the issuer signed in, from the code its redirect brought back. */
  personFromCode(code: string, flow: PkceFlow): Promise<Person>;
}

/** Where a person confirms a write in a browser (confirm-page/confirm-pages.ts serves the pages). */
export interface ConfirmPageLinks {
  /** From now on the links are under this origin (the HTTP transport's, once it listens), and on a team server the page signs people in. */
  serveAt(origin: string, signIn: ConfirmSignIn | null): void;
  /** How the page signs a person in; null: no sign-in (a single user's server, or no --confirm-client-id). */
  readonly signIn: ConfirmSignIn | null;
  /** Whether the page signs a person in (a team server with the page's OAuth client): their link is then the page's own. */
  readonly signsIn: boolean;
  /** The read-only link to the page of a dry run (its reference, and who may confirm it); null when no one could confirm on a page. */
  link(ctx: ServerContext, target: TokenBinding & { reference: string }): Promise<string | null>;
  /** The person's own link, with the page's secret. */
  personLink(ctx: ServerContext, target: TokenBinding & { reference: string }): Promise<string>;
  /** How often a call waiting for the person's decision on a page reads the store; unset: every 500 ms. */
  readonly decisionPollMs?: number | undefined;
  close(): Promise<void>;
}

/** Everything a tool handler works with; one per process, shared by every MCP session. */
export interface ServerContext {
  client: CustodyClient;
  /** The operator every call is made as (X-Vendor-API-User). */
  operator: string;
  policy: Policy;
  /** The guard's state: audit chain, daily limits, intents and nonces. */
  store: GuardStore;
  /** The one road every write walks, over this context's client, policy and store. */
  road: WriteRoad;
  tokens: ConfirmationTokens;
  currencies: CurrencyBook;
  /** The clock of token expiry and of the daily limits; injectable for tests. */
  now: () => Date;
  /** Said in the server instructions: the workspace is the in-process emulator's demo. */
  embedded: boolean;
  /** Where this process serves person mode's confirmation pages. */
  pages: ConfirmPageLinks;
  /**
   * The context a person's calls run in: that of the API operator their role acts as (client, road
   * and currencies of that operator, the same store, tokens and policy), this one when it is the same.
   */
  forPerson(person: Person | null): ServerContext;
}

/**
 * A context whose client, audit log and tokens are built on first use: what a session states and
 * filters its tools on is known at once, and a start does not load (or verify an audit log for)
 * what only a call needs.
 */
export interface DeferredContext {
  operator: string;
  policy: Policy;
  embedded: boolean;
  baseUrl: string;
  pages: ConfirmPageLinks;
  /** The full context; built once, on the first call that needs it. */
  load(): Promise<ServerContext>;
}

/** What a server is created on: a context, or one still to be built. */
export type ContextSource = ServerContext | DeferredContext;

/** A session's context: that of the operator the person's role acts as, built on first use like the process's. */
export function personalContext(source: ContextSource, person: Person | null): DeferredContext {
  const ctx = deferredContext(source);
  if (person === null) return ctx;
  return { ...ctx, operator: grantOperator(grantFor(ctx.policy, person), ctx.operator), load: async () => (await ctx.load()).forPerson(person) };
}

export function deferredContext(source: ContextSource): DeferredContext {
  if ("load" in source) return source;
  const ready = Promise.resolve(source);
  return {
    operator: source.operator,
    policy: source.policy,
    embedded: source.embedded,
    baseUrl: source.client.baseUrl,
    pages: source.pages,
    load: () => ready,
  };
}
