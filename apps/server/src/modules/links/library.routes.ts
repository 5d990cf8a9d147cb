import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { LibraryService } from './library.service.js';

/** Opens are counted as links are clicked: generous, but bounded so a script cannot inflate them. */
const CLICKS_PER_MINUTE = 120;
const BULK_PER_MINUTE = 60;

export function libraryRoutes(add: AddRoute, library: LibraryService): void {
  add(
    routes.countClick,
    async ({ actor, params }) => {
      await library.countClick(actor, params.id);
      return { success: true as const };
    },
    { rateLimitPerMinute: CLICKS_PER_MINUTE },
  );
  add(
    routes.bulkLinks,
    async ({ actor, body }) => ({ success: true as const, data: await library.bulk(actor, body) }),
    {
      rateLimitPerMinute: BULK_PER_MINUTE,
    },
  );
  add(routes.listTags, async ({ actor }) => library.tags(actor));
  add(routes.renameTag, async ({ actor, params, body }) => ({
    success: true as const,
    data: await library.renameTag(actor, params.id, body.name),
  }));
  add(routes.deleteTag, async ({ actor, params }) => ({
    success: true as const,
    data: await library.deleteTag(actor, params.id),
  }));
  add(routes.renameCategory, async ({ actor, body }) => ({
    success: true as const,
    data: await library.renameCategory(actor, body.from, body.to),
  }));
  add(routes.usageCounts, async ({ actor }) => ({ success: true as const, data: await library.usage(actor) }));
}
