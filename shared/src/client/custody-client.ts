import { z } from "zod";
import { Account, AccountPage } from "../schemas/account.js";
import { AccountBalance, SyncResult } from "../schemas/account-balance.js";
import { ApiUser, CreateApiUserRequest, RegistrationResult } from "../schemas/api-user.js";
import { Currency, TokenPage } from "../schemas/currency.js";
import type { Token } from "../schemas/currency.js";
import { EthereumStakePage } from "../schemas/ethereum-stake.js";
import type { EthereumStake } from "../schemas/ethereum-stake.js";
import { FeeEstimate, FeeEstimateRequest } from "../schemas/fee-estimate.js";
import { Health } from "../schemas/health.js";
import { TransactionHistory } from "../schemas/history.js";
import { PageQuery } from "../schemas/primitives.js";
import { RequestStatus } from "../schemas/request-status.js";
import { CreateSolanaStakeRequest, DelegateSolanaStakeRequest, SolanaStake, SolanaStakeList, SplitSolanaStakeRequest } from "../schemas/solana-stake.js";
import { Transaction, TransactionPage, TransactionSearchQuery } from "../schemas/transaction.js";
import { ApproveTransactionRequest, TransactionRequest } from "../schemas/transaction-request.js";
import { UserPage } from "../schemas/user.js";
import type { UserRecord } from "../schemas/user.js";
import type { EndpointCall } from "./call-endpoint.js";
import { callEndpoint } from "./call-endpoint.js";
import type { CallOptions, ClientConfig, CustodyClientOptions } from "./client-options.js";
import { resolveClientOptions } from "./client-options.js";
import type { HttpMethod } from "./errors.js";
import { InvalidInputError } from "./errors.js";
import { fieldIssues } from "../schemas/field-issues.js";
import type { PageOf, PageWalkOptions } from "./page-walk.js";
import { checkWalkOptions, collect, walkPages } from "./page-walk.js";
import { idSegment, queryString, textSegment } from "./path-segment.js";

/** Search filters of GET /transactions, without the paging walked by iterate/searchAll. */
export type TransactionFilter = Omit<TransactionSearchQuery, "page" | "page_size">;

/** Query parameters are checked strictly: a misspelt key is refused rather than silently dropped. */
const StrictPageQuery = z.strictObject(PageQuery.shape);
const StrictTransactionSearchQuery = z.strictObject(TransactionSearchQuery.shape);

function checkQuery<S extends z.ZodType>(subject: string, schema: S, query: unknown): z.output<S> {
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) throw new InvalidInputError(subject, fieldIssues(parsed.error));
  return parsed.data;
}

/**
 * The typed client of the custody workspace API (through the operator module). Every call sends
 * X-Vendor-API-User and validates the answer with the schemas of shared/. GETs are retried with
 * backoff; POSTs are sent exactly once (an unknown outcome raises AmbiguousWriteError).
 */
export class CustodyClient {
  readonly #config: ClientConfig;

  constructor(options: CustodyClientOptions) {
    this.#config = resolveClientOptions(options);
  }

  get operator(): string {
    return this.#config.operator;
  }

  /** The per-attempt timeout of a call: a write whose answer is lost may still be applied for about this long. */
  get timeoutMs(): number {
    return this.#config.timeoutMs;
  }

  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  /** The service's time now, as its latest answer's Date header gave it (the local clock before any answer). */
  serviceNow(): Date {
    return this.#config.serviceClock.now();
  }

  /** The service's time now, asked first (GET /_health) when no answer has told it yet: a window must not be drawn on this machine's clock. */
  async readServiceNow(options?: CallOptions): Promise<Date> {
    if (!this.#config.serviceClock.known) await this.health(options);
    return this.serviceNow();
  }

  #call<S extends z.ZodType>(call: EndpointCall<S>, options: CallOptions | undefined): Promise<z.output<S>> {
    return callEndpoint(this.#config, call, options);
  }

  #get<S extends z.ZodType>(path: string, response: S, options: CallOptions | undefined): Promise<z.output<S>> {
    return this.#call({ method: "GET", path, response }, options);
  }

  #post<S extends z.ZodType>(path: string, response: S, body: EndpointCall<S>["body"], options: CallOptions | undefined): Promise<z.output<S>> {
    return this.#call({ method: "POST", path, response, body }, options);
  }

  #walk<T>(path: string, options: PageWalkOptions, fetchPage: (query: PageQuery, call: CallOptions) => Promise<PageOf<T>>): AsyncGenerator<T, void, undefined> {
    const { pageSize, maxPages } = checkWalkOptions(`GET ${path} walk options`, options);
    const call: CallOptions = {};
    if (options.signal !== undefined) call.signal = options.signal;
    if (options.timeoutMs !== undefined) call.timeoutMs = options.timeoutMs;
    return walkPages(path, maxPages, (page) => fetchPage(pageSize === undefined ? { page } : { page, page_size: pageSize }, call));
  }

  // Module and operators

  /** GET /_health. An operator unknown to the module gets UnknownOperatorError. */
  async health(options?: CallOptions): Promise<Health> {
    return this.#get("/_health", Health, options);
  }

  /** POST /api_users: creates the operator in the module; the answer carries its device_id. */
  async createApiUser(name: string, options?: CallOptions): Promise<ApiUser> {
    return this.#post("/api_users", ApiUser, { schema: CreateApiUserRequest, value: { name } }, options);
  }

  /** POST /api_users/{name}/register/{uuid} with `{ name }`. */
  async registerApiUser(name: string, uuid: string, options?: CallOptions): Promise<RegistrationResult> {
    const subject = "POST /api_users/{name}/register/{uuid}";
    const path = `/api_users/${textSegment(subject, "name", name)}/register/${textSegment(subject, "uuid", uuid)}`;
    return this.#post(path, RegistrationResult, { schema: CreateApiUserRequest, value: { name } }, options);
  }

  /** GET /users, one page. */
  async listUsers(query?: PageQuery, options?: CallOptions): Promise<UserPage> {
    const page = checkQuery("GET /users query", StrictPageQuery, query);
    return this.#get(`/users${queryString(page)}`, UserPage, options);
  }

  async *iterateUsers(options: PageWalkOptions = {}): AsyncGenerator<UserRecord, void, undefined> {
    yield* this.#walk("/users", options, (query, call) => this.listUsers(query, call));
  }

  async listAllUsers(options?: PageWalkOptions): Promise<UserRecord[]> {
    return collect(this.iterateUsers(options));
  }

  // Accounts

  /** GET /accounts, one page. */
  async listAccounts(query?: PageQuery, options?: CallOptions): Promise<AccountPage> {
    const page = checkQuery("GET /accounts query", StrictPageQuery, query);
    return this.#get(`/accounts${queryString(page)}`, AccountPage, options);
  }

  async *iterateAccounts(options: PageWalkOptions = {}): AsyncGenerator<Account, void, undefined> {
    yield* this.#walk("/accounts", options, (query, call) => this.listAccounts(query, call));
  }

  async listAllAccounts(options?: PageWalkOptions): Promise<Account[]> {
    return collect(this.iterateAccounts(options));
  }

  async getAccount(accountId: number, options?: CallOptions): Promise<Account> {
    return this.#get(`/accounts/${idSegment("GET /accounts/{account_id}", "account_id", accountId)}`, Account, options);
  }

  /** GET /accounts/{id}/sync: refreshes the account's transaction history. */
  async syncAccount(accountId: number, options?: CallOptions): Promise<SyncResult> {
    return this.#get(`/accounts/${idSegment("GET /accounts/{account_id}/sync", "account_id", accountId)}/sync`, SyncResult, options);
  }

  async getAccountBalance(accountId: number, options?: CallOptions): Promise<AccountBalance> {
    return this.#get(`/accounts/${idSegment("GET /accounts/{account_id}/balance", "account_id", accountId)}/balance`, AccountBalance, options);
  }

  // Transactions

  /** POST /transactions. Sent once; build the body with the builders of requests/. */
  async createTransaction(body: TransactionRequest, options?: CallOptions): Promise<Transaction> {
    return this.#post("/transactions", Transaction, { schema: TransactionRequest, value: body }, options);
  }

  /** POST /transactions/fees: the estimate for a would-be transaction. */
  async estimateFees(body: FeeEstimateRequest, options?: CallOptions): Promise<FeeEstimate> {
    return this.#post("/transactions/fees", FeeEstimate, { schema: FeeEstimateRequest, value: body }, options);
  }

  async getTransaction(transactionId: number, options?: CallOptions): Promise<Transaction> {
    return this.#get(`/transactions/${idSegment("GET /transactions/{transaction_id}", "transaction_id", transactionId)}`, Transaction, options);
  }

  async getTransactionHistory(transactionId: number, options?: CallOptions): Promise<TransactionHistory> {
    const id = idSegment("GET /transactions/{transaction_id}/history", "transaction_id", transactionId);
    return this.#get(`/transactions/${id}/history`, TransactionHistory, options);
  }

  /** POST /transactions/{id}/approve; amount and max_fees must match the transaction (see buildApproveRequestFor). */
  async approveTransaction(transactionId: number, body: ApproveTransactionRequest, options?: CallOptions): Promise<Transaction> {
    const id = idSegment("POST /transactions/{transaction_id}/approve", "transaction_id", transactionId);
    return this.#post(`/transactions/${id}/approve`, Transaction, { schema: ApproveTransactionRequest, value: body }, options);
  }

  /** GET /transactions with filters (label searches note titles and contents), one page. */
  async searchTransactions(query?: TransactionSearchQuery, options?: CallOptions): Promise<TransactionPage> {
    const search = checkQuery("GET /transactions query", StrictTransactionSearchQuery, query);
    return this.#get(`/transactions${queryString(search)}`, TransactionPage, options);
  }

  async *iterateTransactions(filter: TransactionFilter = {}, options: PageWalkOptions = {}): AsyncGenerator<Transaction, void, undefined> {
    yield* this.#walk("/transactions", options, (query, call) => this.searchTransactions({ ...filter, ...query }, call));
  }

  async searchAllTransactions(filter?: TransactionFilter, options?: PageWalkOptions): Promise<Transaction[]> {
    return collect(this.iterateTransactions(filter, options));
  }

  /** GET /requests/{request_id}/status: the governance steps of a request. */
  async getRequestStatus(requestId: number, options?: CallOptions): Promise<RequestStatus> {
    return this.#get(`/requests/${idSegment("GET /requests/{request_id}/status", "request_id", requestId)}/status`, RequestStatus, options);
  }

  // Currencies

  async getCurrency(currency: string, options?: CallOptions): Promise<Currency> {
    return this.#get(`/currencies/${textSegment("GET /currencies/{currency}", "currency", currency)}`, Currency, options);
  }

  /** GET /currencies/tokens, one page. */
  async listTokens(query?: PageQuery, options?: CallOptions): Promise<TokenPage> {
    const page = checkQuery("GET /currencies/tokens query", StrictPageQuery, query);
    return this.#get(`/currencies/tokens${queryString(page)}`, TokenPage, options);
  }

  async *iterateTokens(options: PageWalkOptions = {}): AsyncGenerator<Token, void, undefined> {
    yield* this.#walk("/currencies/tokens", options, (query, call) => this.listTokens(query, call));
  }

  async listAllTokens(options?: PageWalkOptions): Promise<Token[]> {
    return collect(this.iterateTokens(options));
  }

  // Solana guided staking

  /** POST /solana/accounts/{id}/stakes: create and delegate; the amount goes out as a JSON integer. */
  async createSolanaStake(accountId: number, body: CreateSolanaStakeRequest, options?: CallOptions): Promise<Transaction> {
    const id = idSegment("POST /solana/accounts/{account_id}/stakes", "account_id", accountId);
    return this.#post(`/solana/accounts/${id}/stakes`, Transaction, { schema: CreateSolanaStakeRequest, value: body }, options);
  }

  /** GET /solana/accounts/{id}/stakes: a bare array, no paging. */
  async listSolanaStakes(accountId: number, options?: CallOptions): Promise<SolanaStake[]> {
    return this.#get(`/solana/accounts/${idSegment("GET /solana/accounts/{account_id}/stakes", "account_id", accountId)}/stakes`, SolanaStakeList, options);
  }

  async getSolanaStake(accountId: number, uid: string, options?: CallOptions): Promise<SolanaStake> {
    return this.#get(this.#stakePath("GET", "", accountId, uid), SolanaStake, options);
  }

  async deactivateSolanaStake(accountId: number, uid: string, options?: CallOptions): Promise<Transaction> {
    return this.#post(this.#stakePath("POST", "/actions/deactivate", accountId, uid), Transaction, undefined, options);
  }

  async withdrawSolanaStake(accountId: number, uid: string, options?: CallOptions): Promise<Transaction> {
    return this.#post(this.#stakePath("POST", "/actions/withdraw", accountId, uid), Transaction, undefined, options);
  }

  /** Delegates the stake's whole total_balance to the validator; only if the stake's actions list delegate. */
  async delegateSolanaStake(accountId: number, uid: string, body: DelegateSolanaStakeRequest, options?: CallOptions): Promise<Transaction> {
    const path = this.#stakePath("POST", "/actions/delegate", accountId, uid);
    return this.#post(path, Transaction, { schema: DelegateSolanaStakeRequest, value: body }, options);
  }

  async splitSolanaStake(accountId: number, uid: string, body: SplitSolanaStakeRequest, options?: CallOptions): Promise<Transaction> {
    const path = this.#stakePath("POST", "/actions/split", accountId, uid);
    return this.#post(path, Transaction, { schema: SplitSolanaStakeRequest, value: body }, options);
  }

  async splitDeactivateSolanaStake(accountId: number, uid: string, body: SplitSolanaStakeRequest, options?: CallOptions): Promise<Transaction> {
    const path = this.#stakePath("POST", "/actions/split_deactivate", accountId, uid);
    return this.#post(path, Transaction, { schema: SplitSolanaStakeRequest, value: body }, options);
  }

  #stakePath(method: HttpMethod, suffix: string, accountId: number, uid: string): string {
    const subject = `${method} /solana/accounts/{account_id}/stakes/{uid}${suffix}`;
    return `/solana/accounts/${idSegment(subject, "account_id", accountId)}/stakes/${textSegment(subject, "uid", uid)}${suffix}`;
  }

  // Ethereum staking

  /** GET /ethereum/accounts/{id}/stakes, one page. */
  async listEthereumStakes(accountId: number, query?: PageQuery, options?: CallOptions): Promise<EthereumStakePage> {
    const subject = "GET /ethereum/accounts/{account_id}/stakes";
    const page = checkQuery(`${subject} query`, StrictPageQuery, query);
    return this.#get(`/ethereum/accounts/${idSegment(subject, "account_id", accountId)}/stakes${queryString(page)}`, EthereumStakePage, options);
  }

  async *iterateEthereumStakes(accountId: number, options: PageWalkOptions = {}): AsyncGenerator<EthereumStake, void, undefined> {
    const path = `/ethereum/accounts/${idSegment("GET /ethereum/accounts/{account_id}/stakes", "account_id", accountId)}/stakes`;
    yield* this.#walk(path, options, (query, call) => this.listEthereumStakes(accountId, query, call));
  }

  async listAllEthereumStakes(accountId: number, options?: PageWalkOptions): Promise<EthereumStake[]> {
    return collect(this.iterateEthereumStakes(accountId, options));
  }
}
