import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import { FetchError } from '../pages/fetcher.js';
import type { LinkAnalysisService } from './link-analysis.service.js';

/**
 * Enqueued by link creation (same transaction, interactive) and by the re-analyse routes.
 *
 * Retry policy: 3 attempts, 5 s then 15 s apart, only for what may pass on its own (a host that did
 * not answer, a timeout, a 5xx or 429, or an error on our side such as the model's); with the 10 s
 * fetch timeout a dead link is marked failed within a minute. An answer that will not change (a
 * 404, a blocked address, not a web page) fails at once. The card then shows the reason and a
 * retry button; the link still gets a vector of what the user typed.
 */
export const analyzeLinkSpec = jobSpec({
  name: 'analyze-link',
  priority: Priority.interactive,
  retry: {
    attempts: 3,
    backoff: { baseMs: 5000, factor: 3, maxMs: 60_000 },
    retryable: (error) => !(error instanceof FetchError) || error.transient,
  },
});

export function analyzeLinkJob(analyses: LinkAnalysisService): JobDefinition<'analyze-link'> {
  return defineJob(analyzeLinkSpec, {
    run: ({ userId, linkId }) => analyses.enrich(userId, linkId),
    onGiveUp: ({ userId, linkId }, error) => analyses.giveUp(userId, linkId, error),
  });
}
