import { z } from 'zod';
import { cleanTag, IdSchema } from './common.js';
import { Limits, TagMessages } from './messages.js';

/** Why a link's page could not be analysed, in the words the card and the add dialog show. */
export const AnalysisFailureReasons = [
  'unreachable',
  'blocked',
  'not-html',
  'timeout',
  'http-error',
  'empty',
  'error',
] as const;
export const AnalysisFailureReasonSchema = z.enum(AnalysisFailureReasons);
export type AnalysisFailureReason = z.infer<typeof AnalysisFailureReasonSchema>;

export const AnalysisFailureSchema = z.object({
  reason: AnalysisFailureReasonSchema,
  /** The HTTP status the page answered, for `http-error`. */
  status: z.number().int().nullable(),
});
export type AnalysisFailure = z.infer<typeof AnalysisFailureSchema>;

const HTTP_STATUS_WORDS: Record<number, string> = {
  401: 'sign-in required',
  403: 'forbidden',
  404: 'not found',
  410: 'gone',
  429: 'too many requests',
  500: 'server error',
  502: 'bad gateway',
  503: 'unavailable',
  504: 'gateway timeout',
};

/** A failure in plain words, e.g. "The page answered 404 (not found)". */
export function analysisFailureText(failure: AnalysisFailure): string {
  switch (failure.reason) {
    case 'unreachable':
      return 'The site could not be reached';
    case 'blocked':
      return 'This address is on a private network and is not fetched';
    case 'not-html':
      return 'The address is not a web page';
    case 'timeout':
      return 'The page took too long to answer';
    case 'http-error': {
      if (failure.status === null) return 'The page answered with an error';
      const words = HTTP_STATUS_WORDS[failure.status];
      return `The page answered ${failure.status}${words ? ` (${words})` : ''}`;
    }
    case 'empty':
      return 'The page had nothing to read';
    case 'error':
      return 'The page could not be analysed';
  }
}

/** Opening a link from the app: counted once per open. */
export const ClickResponseSchema = z.object({ success: z.literal(true) });

/** A tag with how many of the user's links carry it. */
export const TagSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  count: z.number().int(),
});
export type TagSummary = z.infer<typeof TagSummarySchema>;

/** Two tags that probably mean the same; merging `from` into `into` keeps the more used spelling. */
export const TagMergeSuggestionSchema = z.object({
  from: z.string(),
  into: z.string(),
  why: z.enum(['spelling', 'meaning']),
});
export type TagMergeSuggestion = z.infer<typeof TagMergeSuggestionSchema>;

export const TagsResponseSchema = z.object({
  data: z.array(TagSummarySchema),
  suggestions: z.array(TagMergeSuggestionSchema),
});
export type TagsResponse = z.infer<typeof TagsResponseSchema>;

const TagName = z
  .string({ error: 'Tag name is required' })
  .transform(cleanTag)
  .pipe(
    z
      .string()
      .min(1, { error: 'Tag name is required' })
      .max(Limits.tagMax, { error: `Each tag must be at most ${Limits.tagMax} characters` })
      .refine((v) => !v.includes(','), { error: 'A tag name cannot contain a comma' }),
  );

/** Renaming to the name of another tag merges the two (the links follow, each keeps one copy). */
export const TagRenameSchema = z.object({ name: TagName });
export const TagChangeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ name: z.string(), merged: z.boolean(), links: z.number().int() }),
});
export const TagDeleteResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ links: z.number().int() }),
});

const CategoryName = z
  .string({ error: 'Category is required' })
  .trim()
  .transform((v) => v.replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, { error: 'Category is required' })
      .max(Limits.categoryMax, { error: `Category must be at most ${Limits.categoryMax} characters` }),
  );

/** Renames a category on every link; renaming onto an existing category merges the two. */
export const CategoryRenameSchema = z.object({ from: CategoryName, to: CategoryName });
export const CategoryRenameResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ links: z.number().int() }),
});

export const BulkActions = [
  'mark-read',
  'mark-unread',
  'read-later',
  'not-read-later',
  'set-category',
  'add-tags',
  'remove-tags',
  'reanalyze',
  'delete',
] as const;
export type BulkAction = (typeof BulkActions)[number];

const Ids = z
  .array(IdSchema)
  .min(1, { error: 'Select at least one link' })
  .max(Limits.bulkMax, { error: `At most ${Limits.bulkMax} links at a time` });

/** One action over several links; links that are not the user's are skipped (never revealed). */
export const BulkRequestSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.enum(['mark-read', 'mark-unread', 'read-later', 'not-read-later', 'reanalyze', 'delete']),
    ids: Ids,
  }),
  z.object({
    action: z.literal('set-category'),
    ids: Ids,
    category: z
      .string()
      .max(Limits.categoryMax, { error: `Category must be at most ${Limits.categoryMax} characters` })
      .nullable()
      .transform((v) => {
        const c = v?.trim().replace(/\s+/g, ' ');
        return c ? c : null;
      }),
  }),
  z.object({
    action: z.enum(['add-tags', 'remove-tags']),
    ids: Ids,
    tags: z
      .array(z.string().max(Limits.tagMax, { error: `Each tag must be at most ${Limits.tagMax} characters` }))
      .min(1, { error: TagMessages.noneNamed })
      .max(Limits.tagsPerLink, { error: TagMessages.tooMany }),
  }),
]);
export type BulkRequest = z.infer<typeof BulkRequestSchema>;
export type BulkRequestInput = z.input<typeof BulkRequestSchema>;

export const BulkResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    affected: z.number().int(),
    /** add-tags only: links that had no room (50 tags) for every named tag; `affected` leaves them out. */
    tagLimited: z.number().int().optional(),
  }),
});

/** Counts Profile shows: opens from the app and searches this calendar month (UTC). */
export const UsageCountsSchema = z.object({
  totalClicks: z.number().int(),
  searchesThisMonth: z.number().int(),
});
export const UsageCountsResponseSchema = z.object({ success: z.literal(true), data: UsageCountsSchema });
export type UsageCounts = z.infer<typeof UsageCountsSchema>;

export const TagIdParamsSchema = z.object({ id: IdSchema });
