import type { VaultKeyMaterial, VaultPut } from '@linkwise/contract';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor } from '../../platform/actor.js';
import type { LinkRepository } from '../links/link.repository.js';
import type { StoredVault, VaultRepository } from './vault.repository.js';

/**
 * The vault's key material in and out, and its reset. The server cannot check a master password (it
 * never sees one); the contract's schema refuses material below the minimum parameters, so a client
 * bug cannot weaken a vault silently.
 */
export class VaultService {
  constructor(private readonly deps: { vaults: VaultRepository; links: LinkRepository; clock: Clock }) {}

  get(actor: Actor): Promise<StoredVault | undefined> {
    return this.deps.vaults.find(actor.userId);
  }

  /**
   * A compare-and-set: `replaces: null` creates the vault, `replaces: <current wrapped key>` changes
   * the master password; anything else lost a race with another device and is refused.
   */
  async put(
    actor: Actor,
    { replaces, ...material }: VaultPut,
  ): Promise<{ material: VaultKeyMaterial; updatedAt: number }> {
    const now = this.deps.clock.now();
    if (!(await this.deps.vaults.save(actor.userId, material, replaces, now))) {
      throw new AppError(
        'VAULT_CONFLICT',
        replaces === null
          ? 'This account already has a vault. Unlock it with its master password instead.'
          : 'The vault was changed on another device. Reload and try again.',
      );
    }
    return { material, updatedAt: now };
  }

  /** Deletes the key material and every credential (links stay), in one transaction. */
  async reset(actor: Actor): Promise<number> {
    const { vaults, links, clock } = this.deps;
    return links.transaction(async (tx) => {
      const deleted = await tx.deleteAllCredentials(actor.userId, clock.now());
      await vaults.with(tx.connection).delete(actor.userId);
      return deleted;
    });
  }
}
