import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { LlmError } from '../analysis/providers/llm.js';
import { REEMBED_LINKS_JOB, ReembedPayloadSchema, type ReembedService } from '../analysis/reembed.service.js';
import type { JobHandler } from './job-runner.js';

/**
 * Queued at start-up when links lack vectors of the embedding model; each run embeds one batch and
 * continues itself (same row, new cursor) until no link is left.
 *
 * Retry policy: each batch gets up to 5 attempts with the runner's exponential backoff (provider
 * down, rate limited), each of them up to 3 requests under the embedder's own policy (so up to 15
 * in all, spread over minutes); an answer retrying cannot fix (rejected key, wrong vector size) stops the
 * run at once. A stopped run is queued again at the next start-up and begins from the first link;
 * links already re-embedded are skipped, so nothing is embedded twice.
 */
export function reembedLinksJob(reembed: ReembedService, log: FastifyBaseLogger): JobHandler {
  return {
    type: REEMBED_LINKS_JOB,
    async run(payload) {
      const next = await reembed.step(ReembedPayloadSchema.parse(payload));
      return next ? { continueWith: next } : undefined;
    },
    retryable: (error) => !(error instanceof z.ZodError) && !(error instanceof LlmError && !error.retryable),
    onGiveUp(_payload, error) {
      log.error(
        { error: error instanceof Error ? error.message : String(error) },
        're-embedding of links stopped; it starts again with the next start-up',
      );
      return Promise.resolve();
    },
  };
}
