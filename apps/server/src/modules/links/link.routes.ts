import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { LinkService } from './link.service.js';

export function linkRoutes(add: AddRoute, links: LinkService): void {
  add(routes.listLinks, ({ actor, query }) => links.list(actor, query));
  add(routes.createLink, ({ actor, body }) => links.create(actor, body), { rateLimitPerMinute: 300 });
  add(routes.linkCategories, async ({ actor }) => ({ data: await links.categories(actor) }));
  add(routes.linkStats, async ({ actor }) => ({ success: true as const, data: await links.stats(actor) }));
  add(routes.lookupLink, async ({ actor, query }) => ({ data: await links.lookup(actor, query.url) }));
  add(routes.getLink, ({ actor, params }) => links.get(actor, params.id));
  add(routes.updateLink, ({ actor, params, body }) => links.update(actor, params.id, body));
  add(routes.deleteLink, ({ actor, params }) => links.delete(actor, params.id));
}
