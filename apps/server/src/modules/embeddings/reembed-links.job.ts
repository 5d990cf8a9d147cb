import { defineJob, jobSpec, Priority, type JobDefinition } from '../../platform/jobs/job.js';
import { LlmError } from '../ml/providers/llm.js';
import type { ReembedService } from './reembed.service.js';

/**
 * Queued at start-up when links lack vectors of the embedding model; each run embeds one batch and
 * continues itself (same row, new cursor) until no link is left. Bulk: saves are analysed first.
 *
 * Retry policy: each batch gets up to 5 attempts, 5 s × 4^(n−1) apart (provider down, rate
 * limited), each of them up to 3 requests under the embedder's own policy (so up to 15 in all,
 * spread over minutes); an answer retrying cannot fix (rejected key, wrong vector size) stops the
 * run at once. A stopped run is queued again at the next start-up and begins from the first link;
 * links already re-embedded are skipped, so nothing is embedded twice.
 */
export const reembedLinksSpec = jobSpec({
  name: 'reembed-links',
  priority: Priority.bulk,
  retry: {
    attempts: 5,
    backoff: { baseMs: 5000, factor: 4, maxMs: 10 * 60_000 },
    retryable: (error) => !(error instanceof LlmError && !error.retryable),
  },
});

export function reembedLinksJob(reembed: ReembedService): JobDefinition<'reembed-links'> {
  return defineJob(reembedLinksSpec, {
    // Only a process whose model is the deployment's target re-embeds (decision 0018).
    available: () => reembed.canRun(),
    async run(payload, ctx) {
      const { next, done, total } = await reembed.step(payload);
      await ctx.progress({ done, total });
      return next ? { continueWith: next } : undefined;
    },
    onGiveUp(_payload, error, ctx) {
      ctx.log.error(
        { error: error instanceof Error ? error.message : String(error) },
        're-embedding of links stopped; it starts again with the next start-up',
      );
      return Promise.resolve();
    },
  });
}
