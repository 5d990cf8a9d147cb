import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * Table types for Kysely. Conventions shared by both engines: ids are text, timestamps are epoch
 * milliseconds (bigint), flags are integers 0/1 (better-sqlite3 cannot bind booleans), and columns
 * maintained by the database itself are typed as never-writable.
 */
type Millis = number;
type Flag = 0 | 1;
type DbGenerated<T> = ColumnType<T, never, never>;
/** A nullable column added later: optional on insert, null when left out. */
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface UsersTable {
  id: string;
  email: string;
  username: string;
  username_key: string;
  password_hash: string;
  created_at: Millis;
  updated_at: Millis;
  /** Kept exact by triggers on links (migration 0002). */
  link_count: DbGenerated<number>;
  /** Moves whenever one of the user's vectors changes or a link is deleted (triggers of the search index). */
  search_version: DbGenerated<number>;
  /** The TOTP secret, encrypted with the server key (modules/auth/secret-box.ts); null without 2FA. */
  totp_secret: Nullable<string>;
  /** A secret shown by setup and not yet confirmed by a code. */
  totp_pending_secret: Nullable<string>;
  totp_enabled_at: Nullable<Millis>;
  /** The last time step a code was accepted for: a code is never accepted twice. */
  totp_last_step: Nullable<number>;
}

export interface AuthTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  kind: 'web' | 'extension' | 'api';
  name: string;
  user_agent: string | null;
  created_at: Millis;
  last_used_at: Millis;
  /** API tokens only: 'read' or 'write'; null for a signed-in device (full access). */
  scope: Nullable<'read' | 'write'>;
  /** API tokens only: when the token stops working; null never. */
  expires_at: Nullable<Millis>;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: Millis | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Millis;
  expires_at: Millis;
}

export interface SignInFailuresTable {
  key: string;
  failures: number;
  window_start: Millis;
}

export interface LinksTable {
  id: string;
  user_id: string;
  url: string;
  normalized_url: string;
  title: string;
  title_key: DbGenerated<string>;
  description: string;
  ai_description: string | null;
  category: string | null;
  /** 1 while the category is the one the analysis filled in, until the user sets one; migration 0018. */
  category_by_analysis: Generated<Flag>;
  /** The analysis's runner-up category, offered while the category is still its own; migration 0021. */
  category_other: string | null;
  notes: string;
  is_read: Flag;
  is_read_later: Flag;
  smart_score: DbGenerated<number>;
  has_credentials: Flag;
  favicon: string | null;
  analysis_status: 'pending' | 'done' | 'failed';
  /** Why the last analysis failed (`AnalysisFailureReason`), with the page's HTTP status when it answered one. */
  analysis_error: string | null;
  analysis_error_status: number | null;
  /** When the pending analysis was queued. */
  analysis_started_at: Millis | null;
  /** The page's icon as a `data:` URL (fetched by the server, so the browser never contacts the host). */
  favicon_data: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface LinkClicksTable {
  link_id: string;
  user_id: string;
  count: number;
  last_clicked_at: Millis;
}

export interface SearchCountsTable {
  user_id: string;
  /** `YYYY-MM` in UTC. */
  month: string;
  count: number;
}

export interface TagsTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  created_at: Millis;
}

export interface LinkTagsTable {
  link_id: string;
  tag_id: string;
  position: number;
}

export interface CredentialsTable {
  id: string;
  link_id: string;
  user_id: string;
  iv: string;
  ciphertext: string;
  v: number;
  position: number;
  created_at: Millis;
  updated_at: Millis;
}

/** Vault key material (zero knowledge: the server cannot unwrap it). */
export interface VaultsTable {
  user_id: string;
  version: number;
  kdf_name: string;
  kdf_hash: string;
  iterations: number;
  salt: string;
  iv: string;
  wrapped_key: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface PageContentsTable {
  link_id: string;
  text: string;
  language: string | null;
  content_hash: string | null;
  fetched_at: Millis;
}

export interface EmbeddingsTable {
  link_id: string;
  model: string;
  dims: number;
  vector: Uint8Array;
  created_at: Millis;
}

/** Links whose vector changed, one row per move of `users.search_version` (modules/search-index/vector-log.ts). */
export interface SearchVectorLogTable {
  user_id: string;
  seq: number;
  link_id: string;
}

export interface JobsTable {
  id: string;
  type: string;
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'canceled';
  attempts: Generated<number>;
  max_attempts: number;
  /** Lower runs first: an interactive save before a bulk import's backlog. */
  priority: Generated<number>;
  /** At most one queued or running job per key; a finished one with the key is queued again. */
  dedupe_key: string | null;
  /** JSON `{done, total}` of a long job, or null. */
  progress: string | null;
  /** The HTTP request that enqueued the job, for following one action across processes in the logs. */
  request_id: string | null;
  run_at: Millis;
  locked_at: Millis | null;
  locked_by: string | null;
  last_error: string | null;
  /** Set when cancelling was asked for; a running job notices it at its next heartbeat. */
  cancel_requested: Generated<number>;
  finished_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface SubscriptionsTable {
  user_id: string;
  provider: 'simulated' | 'stripe';
  status: 'free' | 'active' | 'canceled' | 'past_due' | 'unpaid';
  plan: 'monthly' | 'yearly' | null;
  /** A downgrade waiting for the end of the paid period. */
  scheduled_plan: 'monthly' | 'yearly' | null;
  current_period_end: Millis | null;
  cancel_at_period_end: Flag;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface CheckoutSessionsTable {
  id: string;
  kind: 'checkout' | 'portal';
  user_id: string;
  provider: 'simulated' | 'stripe';
  plan: 'monthly' | 'yearly';
  status: 'open' | 'completed' | 'canceled';
  created_at: Millis;
  expires_at: Millis;
}

export interface PaymentEventsTable {
  id: string;
  provider: 'simulated' | 'stripe';
  type: string;
  processed_at: Millis;
}

/** An uploaded file being imported (modules/imports); `processed` is the resume checkpoint. */
export interface ImportsTable {
  id: string;
  user_id: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'canceled';
  format: string;
  file_name: string;
  file_bytes: number;
  /** JSON of the import's options (category source, duplicate mode). */
  options: string;
  job_id: string | null;
  total: number | null;
  processed: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  duplicates: Generated<number>;
  skipped: Generated<number>;
  failed: Generated<number>;
  /** Why a failed import stopped, in words for the user. */
  message: string | null;
  created_at: Millis;
  finished_at: Millis | null;
}

/** An item an import skipped or could not import, with its reason (the report). */
export interface ImportIssuesTable {
  import_id: string;
  idx: number;
  kind: 'duplicate' | 'skipped' | 'failed' | 'partial';
  url: string;
  reason: string;
}

export interface ImportLinksTable {
  import_id: string;
  link_id: string;
}

/** One payment-provider customer per user (migration 0015). */
export interface BillingCustomersTable {
  user_id: string;
  provider: 'simulated' | 'stripe';
  customer_id: string;
  created_at: Millis;
  /** When the provider state last applied for this customer was read (out-of-order guard). */
  synced_at: Millis | null;
}

/** A worker that embeds for other processes (migration 0019). */
export interface ModelWorkersTable {
  id: string;
  /** JSON array of the model ids it embeds with, its links' model first. */
  models: string;
  version: string;
  started_at: Millis;
  heartbeat_at: Millis;
}

/** The deployment's search model, one row `search` (migration 0019, decision 0018). */
export interface SearchModelsTable {
  id: string;
  /** The model links are re-embedded into: it only moves up the catalog. */
  target: string | null;
  target_dims: number | null;
  /** The target's rank in the offline catalog when it was written; -1: not an offline model. */
  target_rank: Generated<number>;
  /** The model whose vectors every link has (the last finished run's). */
  active: string | null;
  active_dims: number | null;
  updated_at: Millis;
}

export interface DB {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  links: LinksTable;
  tags: TagsTable;
  link_tags: LinkTagsTable;
  credentials: CredentialsTable;
  vaults: VaultsTable;
  page_contents: PageContentsTable;
  embeddings: EmbeddingsTable;
  search_vector_log: SearchVectorLogTable;
  jobs: JobsTable;
  subscriptions: SubscriptionsTable;
  checkout_sessions: CheckoutSessionsTable;
  payment_events: PaymentEventsTable;
  recovery_codes: RecoveryCodesTable;
  password_resets: PasswordResetsTable;
  sign_in_failures: SignInFailuresTable;
  imports: ImportsTable;
  import_issues: ImportIssuesTable;
  import_links: ImportLinksTable;
  billing_customers: BillingCustomersTable;
  link_clicks: LinkClicksTable;
  search_counts: SearchCountsTable;
  model_workers: ModelWorkersTable;
  search_models: SearchModelsTable;
}

export type UserRow = Selectable<UsersTable>;
export type LinkRow = Selectable<LinksTable>;
export type NewLink = Insertable<LinksTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
