import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { LinkAnalysisService } from './link-analysis.service.js';
import type { LinkService } from './link.service.js';

/** Each analysis fetches a page and runs the model: limited per user. */
export const ANALYZE_PER_MINUTE = 30;
const REANALYZE_ALL_PER_MINUTE = 2;

export function linkAnalysisRoutes(
  add: AddRoute,
  analysis: LinkAnalysisService,
  access: Pick<LinkService, 'assertViewable'>,
): void {
  add(routes.analyzeLink, ({ actor, body }) => analysis.analyzeForDialog(actor, body.url), {
    rateLimitPerMinute: ANALYZE_PER_MINUTE,
  });
  add(
    routes.reanalyzeLinks,
    async ({ actor }) => ({ success: true as const, data: await analysis.reanalyzeAll(actor) }),
    {
      rateLimitPerMinute: REANALYZE_ALL_PER_MINUTE,
    },
  );
  add(
    routes.reanalyzeLink,
    async ({ actor, params }) => {
      // A link a downgrade hides waits as it is (the whole library's re-analysis still reaches it).
      await access.assertViewable(actor, params.id);
      return { success: true as const, data: await analysis.reanalyze(actor, params.id) };
    },
    { rateLimitPerMinute: ANALYZE_PER_MINUTE },
  );
}
