import { z } from 'zod';

/**
 * Background jobs: every job's payload schema, in one table. The server validates a payload when it
 * is enqueued and again when it is dequeued (a row written by an older release, or by hand, must not
 * reach a handler unchecked).
 */

/** Analyse one saved link: fetch, extract, understand, embed, then fill what the user left empty. */
export const AnalyzeLinkPayloadSchema = z.object({
  linkId: z.string().min(1).max(64),
  userId: z.string().min(1).max(64),
});
export type AnalyzeLinkPayload = z.infer<typeof AnalyzeLinkPayloadSchema>;

/** Re-embed links lacking a vector of the current model; a cursor over link ids, continued in steps. */
export const ReembedLinksPayloadSchema = z.object({
  model: z.string().min(1),
  dims: z.number().int().min(1),
  after: z.string().default(''),
  done: z.number().int().min(0).default(0),
  /** Links in the library when the run started ("N of M links re-indexed"); null for older runs. */
  total: z.number().int().min(0).nullable().default(null),
});
export type ReembedLinksPayload = z.infer<typeof ReembedLinksPayloadSchema>;

/** Import one uploaded file; where it resumes is the import's own checkpoint, not the payload. */
export const ImportLinksPayloadSchema = z.object({
  importId: z.string().min(1).max(64),
  userId: z.string().min(1).max(64),
});
export type ImportLinksPayload = z.infer<typeof ImportLinksPayloadSchema>;

/** The hourly sweep that writes the automatic backups that are due. */
export const BackupLinksPayloadSchema = z.object({});

/**
 * Apply a verified Stripe webhook: the customer's subscription is read again from Stripe (events
 * arrive out of order, so the event's own copy may be stale) and its current state applied.
 */
export const StripeEventPayloadSchema = z.object({
  eventId: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  customerId: z.string().min(1).max(255),
  /** The user a checkout named (client_reference_id), for a customer not yet linked to one. */
  userId: z.string().min(1).max(64).nullable().default(null),
});
export type StripeEventPayload = z.infer<typeof StripeEventPayloadSchema>;

/** Every job name with its payload schema. */
export const JobPayloadSchemas = {
  'analyze-link': AnalyzeLinkPayloadSchema,
  'reembed-links': ReembedLinksPayloadSchema,
  'import-links': ImportLinksPayloadSchema,
  'backup-links': BackupLinksPayloadSchema,
  'stripe-event': StripeEventPayloadSchema,
} as const;

export type JobName = keyof typeof JobPayloadSchemas;
/** What `enqueue` accepts for a job (defaults may be left out). */
export type JobPayloadInput<N extends JobName> = z.input<(typeof JobPayloadSchemas)[N]>;
/** What a handler receives (validated, defaults filled in). */
export type JobPayload<N extends JobName> = z.output<(typeof JobPayloadSchemas)[N]>;

export const JobStatusSchema = z.enum(['queued', 'running', 'done', 'failed', 'canceled']);
/** `failed` and `canceled` are final: a failed job used up its attempts or hit an error retrying cannot fix. */
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** How far a long job is (imports, re-embedding): `total` is null while unknown. */
export const JobProgressSchema = z.object({
  done: z.number().int().min(0),
  total: z.number().int().min(0).nullable(),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;
