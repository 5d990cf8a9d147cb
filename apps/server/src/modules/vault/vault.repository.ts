import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { VaultKeyMaterial } from '@linkwise/contract';

export interface StoredVault {
  material: VaultKeyMaterial;
  updatedAt: number;
}

/** Vault key material. The only place vault SQL lives (credentials belong to the links module). */
export class VaultRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async find(userId: string): Promise<StoredVault | undefined> {
    const row = await this.db.selectFrom('vaults').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    return {
      material: {
        version: row.version as VaultKeyMaterial['version'],
        kdf: {
          name: row.kdf_name as VaultKeyMaterial['kdf']['name'],
          hash: row.kdf_hash as VaultKeyMaterial['kdf']['hash'],
          iterations: row.iterations,
        },
        salt: row.salt,
        iv: row.iv,
        wrappedKey: row.wrapped_key,
      },
      updatedAt: row.updated_at,
    };
  }

  /**
   * Compare-and-set: creates the vault when `replaces` is null and none exists, or replaces the
   * material whose wrapped key is `replaces`. False when the stored state is not the expected one.
   */
  async save(userId: string, material: VaultKeyMaterial, replaces: string | null, now: number): Promise<boolean> {
    const values = {
      version: material.version,
      kdf_name: material.kdf.name,
      kdf_hash: material.kdf.hash,
      iterations: material.kdf.iterations,
      salt: material.salt,
      iv: material.iv,
      wrapped_key: material.wrappedKey,
      updated_at: now,
    };
    if (replaces === null) {
      const created = await this.db
        .insertInto('vaults')
        .values({ user_id: userId, created_at: now, ...values })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(created.numInsertedOrUpdatedRows ?? 0) === 1;
    }
    const updated = await this.db
      .updateTable('vaults')
      .set(values)
      .where('user_id', '=', userId)
      .where('wrapped_key', '=', replaces)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  /** The same repository inside a caller's transaction. */
  with(db: Kysely<DB>): VaultRepository {
    return new VaultRepository(db);
  }

  /** Deletes the user's key material (the caller deletes the credentials in the same transaction). */
  async delete(userId: string): Promise<void> {
    await this.db.deleteFrom('vaults').where('user_id', '=', userId).execute();
  }
}
