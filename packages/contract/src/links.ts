import { z } from 'zod';
import { Limits, Messages, TagMessages } from './messages.js';
import { cleanTag, QueryBoolean, tagKey, TimestampSchema, visibleText, withoutInvisibles } from './common.js';
import { AnalysisFailureSchema } from './library.js';

export const DEFAULT_CATEGORIES = [
  'Development',
  'Design',
  'Marketing',
  'Research',
  'News',
  'Recipes',
  'Tutorials',
  'Business',
  'Entertainment',
  'Education',
  'Technology',
  'Other',
] as const;

export const AnalysisStatusSchema = z.enum(['pending', 'done', 'failed']);
export type AnalysisStatus = z.infer<typeof AnalysisStatusSchema>;

/** A credential as the server stores it: ciphertext only; the vault decrypts it in the client. */
export const EncryptedCredentialSchema = z.strictObject(
  {
    id: z.string().min(1).max(64),
    iv: z.string().min(1).max(64),
    ciphertext: z.string().min(1).max(Limits.credentialCiphertextMax),
    v: z.number().int().min(1).max(100),
  },
  { error: 'Credentials must be encrypted objects {id, iv, ciphertext, v}' },
);
export type EncryptedCredential = z.infer<typeof EncryptedCredentialSchema>;

const CredentialsInput = z.array(EncryptedCredentialSchema).max(Limits.credentialsPerLink, {
  error: `A link holds at most ${Limits.credentialsPerLink} credentials`,
});

/**
 * Tags arrive as an array or a comma-separated string; entries are trimmed, empties dropped and
 * duplicates (compared case-insensitively) removed, keeping the first spelling.
 */
export function parseTags(input: readonly string[] | string): string[] {
  const parts = typeof input === 'string' ? input.split(',') : input.flatMap((t) => t.split(','));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const tag = cleanTag(part);
    if (!tag) continue;
    const key = tagKey(tag);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

export const TagsInputSchema = z
  .union([z.array(z.string().max(Limits.tagMax * 4)), z.string().max(Limits.tagMax * Limits.tagsPerLink)])
  .transform(parseTags)
  .pipe(
    z
      .array(z.string().max(Limits.tagMax, { error: `Each tag must be at most ${Limits.tagMax} characters` }))
      .max(Limits.tagsPerLink, { error: TagMessages.tooMany }),
  );

export const UrlSchema = z
  .string({ error: Messages.invalidUrl })
  .trim()
  .max(Limits.urlMax, { error: `URLs can be at most ${Limits.urlMax} characters` })
  .refine(isHttpUrl, { error: Messages.invalidUrl })
  // A password inside an address would be stored and shown in plain text; the vault is for that.
  .refine((v) => !hasUserInfo(v), { error: Messages.urlWithCredentials });

function hasUserInfo(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/**
 * What people type for an address: "example.com/page" means https. Anything with a scheme, or
 * that does not look like a host name, is returned as typed (trimmed) for the URL check to judge.
 */
export function withDefaultScheme(value: string): string {
  const typed = value.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(typed) && !/^[^/:]+:\d+([/?#]|$)/.test(typed)) return typed;
  return /^(localhost|[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+)(:\d{1,5})?([/?#]|$)/iu.test(typed)
    ? `https://${typed}`
    : typed;
}

/** True for an absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const optionalText = (max: number, name: string) =>
  z
    .string()
    .max(max, { error: `${name} must be at most ${max} characters` })
    .nullish()
    .transform((v) => v?.trim() ?? '');

const optionalCategory = z
  .string()
  .max(Limits.categoryMax, { error: `Category must be at most ${Limits.categoryMax} characters` })
  .nullish()
  .transform((v) => {
    const c = v?.trim().replace(/\s+/g, ' ');
    return c ? c : null;
  });

export const LinkCreateSchema = z.object({
  url: UrlSchema,
  title: optionalText(Limits.titleMax, 'Title'),
  description: optionalText(Limits.descriptionMax, 'Description'),
  category: optionalCategory,
  tags: TagsInputSchema.optional(),
  notes: optionalText(Limits.notesMax, 'Notes'),
  isReadLater: z.boolean().optional(),
  credentials: CredentialsInput.optional(),
});
export type LinkCreate = z.infer<typeof LinkCreateSchema>;
export type LinkCreateInput = z.input<typeof LinkCreateSchema>;

export const LinkUpdateSchema = z.object({
  title: z
    .string({ error: Messages.titleRequired })
    .trim()
    .min(1, { error: Messages.titleRequired })
    .max(Limits.titleMax, { error: `Title must be at most ${Limits.titleMax} characters` })
    .optional(),
  description: optionalText(Limits.descriptionMax, 'Description').optional(),
  category: optionalCategory.optional(),
  tags: TagsInputSchema.optional(),
  notes: optionalText(Limits.notesMax, 'Notes').optional(),
  isRead: z.boolean().optional(),
  isReadLater: z.boolean().optional(),
  credentials: CredentialsInput.optional(),
});
export type LinkUpdate = z.infer<typeof LinkUpdateSchema>;
export type LinkUpdateInput = z.input<typeof LinkUpdateSchema>;

export const LinkSchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  description: z.string(),
  aiDescription: z.string().nullable(),
  category: z.string().nullable(),
  /** A second category the analysis found fitting almost as well, while `category` is still its choice. */
  otherCategory: z.string().optional(),
  tags: z.array(z.string()),
  notes: z.string(),
  isRead: z.boolean(),
  isReadLater: z.boolean(),
  credentials: z.array(EncryptedCredentialSchema),
  favicon: z.string().nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  analysisStatus: AnalysisStatusSchema,
  /** Why the last analysis failed, when `analysisStatus` is `failed`. */
  analysisFailure: AnalysisFailureSchema.nullable().optional(),
  /** When the pending analysis was queued. */
  analysisStartedAt: TimestampSchema.nullable().optional(),
  /** The page's icon as a `data:` URL, fetched by the server (never loaded from the page's host). */
  faviconData: z.string().nullable().optional(),
});
export type Link = z.infer<typeof LinkSchema>;

export const SortFields = ['createdAt', 'updatedAt', 'title', 'isRead', 'isReadLater', 'smart', 'relevance'] as const;
export type SortField = (typeof SortFields)[number];

/** Unknown sort values fall back to newest (createdAt desc), as the spec says. */
export const SortQuerySchema = z
  .object({
    sortBy: z.string().optional(),
    sortOrder: z.string().optional(),
  })
  .transform(({ sortBy, sortOrder }): { sortBy: SortField; sortOrder: 'asc' | 'desc' } => {
    const known = SortFields.find((f) => f === sortBy);
    return { sortBy: known ?? 'createdAt', sortOrder: known && sortOrder === 'asc' ? 'asc' : 'desc' };
  });

const PageSchema = z.coerce
  .number({ error: 'page must be a positive whole number' })
  .int({ error: 'page must be a positive whole number' })
  .min(1, { error: 'page must be a positive whole number' })
  .max(1_000_000, { error: 'page must be a positive whole number' })
  .default(1);

/**
 * `limit`: a whole number clamped into 1..max, `fallback` when absent. An empty `limit=` means none
 * was given (coercion would read it as 0, clamped to 1).
 */
const limitSchema = (fallback: number, max: number) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'limit must be a whole number' })
      .int({ error: 'limit must be a whole number' })
      .default(fallback)
      .transform((n) => Math.min(Math.max(n, 1), max)),
  );

export const LinkListQuerySchema = z
  .object({
    category: z.string().max(Limits.categoryMax).optional(),
    isRead: QueryBoolean,
    isReadLater: QueryBoolean,
    hasCredentials: QueryBoolean,
    search: z.string().max(500).optional(),
    sortBy: z.string().optional(),
    sortOrder: z.string().optional(),
    page: PageSchema,
    limit: limitSchema(Limits.pageSizeDefault, Limits.pageSizeMax),
  })
  .transform((q) => ({ ...q, ...SortQuerySchema.parse(q) }));
export type LinkListQuery = z.infer<typeof LinkListQuerySchema>;
export type LinkListQueryInput = z.input<typeof LinkListQuerySchema>;

export const ListSubscriptionSchema = z.object({
  canAddLinks: z.boolean(),
  totalLinks: z.number().int(),
  linkLimit: z.number().int().nullable(),
  remainingLinks: z.number().int().nullable(),
});

export const LinkListResponseSchema = z.object({
  data: z.array(LinkSchema),
  total: z.number().int().describe('matches the user may view'),
  actualTotal: z.number().int().describe('every link the user owns'),
  page: z.number().int(),
  limit: z.number().int(),
  subscription: ListSubscriptionSchema,
});
export type LinkListResponse = z.infer<typeof LinkListResponseSchema>;

export const CategoriesResponseSchema = z.object({ data: z.array(z.string()) });

export const LinkStatsSchema = z.object({
  totalLinks: z.number().int(),
  categories: z.number().int(),
  readLater: z.number().int(),
  read: z.number().int(),
  unread: z.number().int(),
  withCredentials: z.number().int(),
  topCategory: z.string().nullable(),
  linksLast30Days: z.number().int(),
});
export const LinkStatsResponseSchema = z.object({ success: z.literal(true), data: LinkStatsSchema });
export type LinkStats = z.infer<typeof LinkStatsSchema>;

export const AnalyzeRequestSchema = z.object({
  url: z
    .string({ error: Messages.urlRequiredForAnalysis })
    .trim()
    .min(1, { error: Messages.urlRequiredForAnalysis })
    .pipe(UrlSchema),
});
export const AnalysisResultSchema = z.object({
  title: z.string(),
  description: z.string(),
  category: z.string(),
  /** A second category that fits almost as well, offered beside `category`; absent when none does. */
  otherCategory: z.string().optional(),
  tags: z.array(z.string()),
  isReadLater: z.boolean(),
});
export const AnalyzeResponseSchema = z.object({ success: z.literal(true), data: AnalysisResultSchema });
export type AnalysisResult = z.infer<typeof AnalysisResultSchema>;
export type AnalyzeResponse = z.infer<typeof AnalyzeResponseSchema>;

/** Re-analysis is queued: the links show `analysisStatus: pending` until the background job ran. */
export const ReanalyzeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ queued: z.number().int() }),
});

/** Search: the trimmed query needs at least `Limits.searchMinLength` characters; `#tag` searches a tag. */
export const SearchQuerySchema = z
  .object({
    // Invisible characters (zero-width spaces, a BOM) are not text to search for; joiners stay, as in tags.
    query: z
      .string({ error: Messages.searchTooShort })
      .transform(withoutInvisibles)
      .pipe(
        z
          .string()
          .trim()
          .refine((q) => visibleText(q).length >= Limits.searchMinLength, { error: Messages.searchTooShort })
          .max(Limits.searchMax, { error: `Search text can be at most ${Limits.searchMax} characters` }),
      ),
    sortBy: z.string().optional(),
    sortOrder: z.string().optional(),
    limit: limitSchema(Limits.searchLimitDefault, Limits.searchLimitMax),
  })
  .transform((q) => {
    // Search defaults to relevance; an unknown sort falls back to relevance rather than newest.
    const known = SortFields.find((f): f is Exclude<SortField, 'smart'> => f === q.sortBy && f !== 'smart');
    return {
      query: q.query,
      limit: q.limit,
      sortBy: known ?? ('relevance' as const),
      sortOrder: q.sortOrder === 'asc' ? ('asc' as const) : ('desc' as const),
    };
  });
export type SearchQuery = z.infer<typeof SearchQuerySchema>;
export type SearchQueryInput = z.input<typeof SearchQuerySchema>;

export const MatchTypeSchema = z.enum(['semantic', 'text', 'tag']);
export type MatchType = z.infer<typeof MatchTypeSchema>;

export const SearchResultSchema = LinkSchema.extend({
  similarity: z.number().min(0).max(1),
  match_type: MatchTypeSchema,
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchResponseSchema = z.object({
  data: z.array(SearchResultSchema),
  total: z.number().int(),
  /**
   * Present while the user's links are being re-embedded into a new search model (by meaning,
   * Pro): how many of them have its vector. Search answers from both models meanwhile.
   */
  reindexing: z.object({ done: z.number().int(), total: z.number().int() }).optional(),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
