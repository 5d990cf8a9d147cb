import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { Actor } from '../../platform/actor.js';
import type { SearchService } from './search.service.js';

/** `counted`: records one search for the user's monthly count (Profile's Searches This Month). */
export function searchRoutes(
  add: AddRoute,
  search: SearchService,
  perMinute: number,
  counted?: (actor: Actor) => Promise<void>,
): void {
  add(
    routes.search,
    async ({ actor, query }) => {
      const result = await search.search(actor, query);
      await counted?.(actor);
      return result;
    },
    // Each search embeds its query on the model's thread, which every account shares.
    { rateLimitPerMinute: perMinute },
  );
}
