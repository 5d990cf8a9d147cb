import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import { FetchError } from '../pages/fetcher.js';
import type { LinkAnalysisService } from './link-analysis.service.js';

/**
 * Enqueued by link creation (same transaction, interactive) and by the re-analyse routes.
 *
 * Retry policy: up to 5 attempts, 5 s × 4^(n−1) apart, for anything that may pass (timeouts, 5xx,
 * unreachable hosts); a blocked address is final at once. After the last attempt the link is
 * marked `failed` and still gets a vector of what the user typed.
 */
export const analyzeLinkSpec = jobSpec({
  name: 'analyze-link',
  priority: Priority.interactive,
  retry: {
    attempts: 5,
    backoff: { baseMs: 5000, factor: 4, maxMs: 10 * 60_000 },
    retryable: (error) => !(error instanceof FetchError && error.code === 'BLOCKED_ADDRESS'),
  },
});

export function analyzeLinkJob(analyses: LinkAnalysisService): JobDefinition<'analyze-link'> {
  return defineJob(analyzeLinkSpec, {
    run: ({ userId, linkId }) => analyses.enrich(userId, linkId),
    onGiveUp: ({ userId, linkId }) => analyses.giveUp(userId, linkId),
  });
}
