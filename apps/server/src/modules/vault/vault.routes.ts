import { routes } from '@linkwise/contract';
import type { Clock } from '../../lib/clock.js';
import { toIso } from '../../lib/clock.js';
import type { AddRoute } from '../../http/route-adapter.js';
import { AppError } from '../../errors.js';
import type { VaultRepository } from './vault.repository.js';

/**
 * Key material in and out. The server cannot check a master password (it never sees one); it only
 * refuses material below the minimum parameters, so a client bug cannot weaken a vault silently.
 */
export function vaultRoutes(add: AddRoute, vaults: VaultRepository, clock: Clock): void {
  add(routes.getVault, async ({ actor }) => {
    const stored = await vaults.find(actor.userId);
    return { data: stored?.material ?? null, updatedAt: stored ? toIso(stored.updatedAt) : null };
  });
  add(
    routes.putVault,
    async ({ actor, body }) => {
      const { replaces, ...material } = body;
      const now = clock.now();
      if (!(await vaults.save(actor.userId, material, replaces, now))) {
        throw new AppError(
          'VAULT_CONFLICT',
          replaces === null
            ? 'This account already has a vault. Unlock it with its master password instead.'
            : 'The vault was changed on another device. Reload and try again.',
        );
      }
      return { data: material, updatedAt: toIso(now) };
    },
    { rateLimitPerMinute: 30, bodyLimit: 4 * 1024 },
  );
  add(
    routes.resetVault,
    async ({ actor }) => {
      await vaults.reset(actor.userId, clock.now());
    },
    { rateLimitPerMinute: 10 },
  );
}
