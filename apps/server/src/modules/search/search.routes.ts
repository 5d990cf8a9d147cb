import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { SearchService } from './search.service.js';

export function searchRoutes(add: AddRoute, search: SearchService): void {
  add(routes.search, ({ actor, query }) => search.search(actor, query));
}
