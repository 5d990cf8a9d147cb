import { routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import { toIso } from '../../lib/clock.js';
import type { VaultService } from './vault.service.js';

export function vaultRoutes(add: AddRoute, vault: VaultService): void {
  add(routes.getVault, async ({ actor }) => {
    const stored = await vault.get(actor);
    return { data: stored?.material ?? null, updatedAt: stored ? toIso(stored.updatedAt) : null };
  });
  add(
    routes.putVault,
    async ({ actor, body }) => {
      const { material, updatedAt } = await vault.put(actor, body);
      return { data: material, updatedAt: toIso(updatedAt) };
    },
    { rateLimitPerMinute: 30, bodyLimit: 4 * 1024 },
  );
  add(
    routes.resetVault,
    async ({ actor }) => {
      await vault.reset(actor);
    },
    { rateLimitPerMinute: 10 },
  );
}
