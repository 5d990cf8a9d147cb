import { z } from 'zod';
import { ANALYZE_LINK_JOB } from '../links/link.service.js';
import type { AnalysisService } from '../analysis/analysis.service.js';
import { FetchError } from '../analysis/fetcher.js';
import type { JobHandler } from './job-runner.js';

/** Enqueued by link creation (same transaction) and by the re-analyse routes. */
export const AnalyzeLinkPayloadSchema = z.object({
  linkId: z.string().min(1),
  userId: z.string().min(1),
});

/**
 * Retry policy: up to 5 attempts with exponential backoff (job runner) for anything that may pass
 * (timeouts, 5xx, unreachable hosts); a blocked address is final at once. After the last attempt
 * the link is marked `failed` and still gets a vector of what the user typed.
 */
export function analyzeLinkJob(analysis: AnalysisService): JobHandler {
  return {
    type: ANALYZE_LINK_JOB,
    async run(payload) {
      const { userId, linkId } = AnalyzeLinkPayloadSchema.parse(payload);
      await analysis.enrichLink(userId, linkId);
    },
    retryable: (error) =>
      !(error instanceof FetchError && error.code === 'BLOCKED_ADDRESS') && !(error instanceof z.ZodError),
    async onGiveUp(payload) {
      const parsed = AnalyzeLinkPayloadSchema.safeParse(payload);
      if (parsed.success) await analysis.giveUp(parsed.data.userId, parsed.data.linkId);
    },
  };
}
