import { describe, expect, it } from 'vitest';
import {
  VAULT_MIN_ITERATIONS,
  VaultError,
  VaultKeyMaterialSchema,
  changeMasterPassword,
  createVault,
  decryptCredential,
  encryptCredential,
  fromBase64,
  toBase64,
  unlockVault,
  type VaultKey,
  type VaultKeyMaterial,
} from './vault.js';

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('hex');
const place = { userId: 'user-1', linkId: 'link-1' };
const secret = {
  id: 'cred-1',
  username: 'ada@example.com',
  password: 'correct horse battery staple',
  note: 'work SSO',
};

async function vaultError(promise: Promise<unknown>): Promise<VaultError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VaultError);
  return error as VaultError;
}

describe('vault crypto: known-answer vectors (WebCrypto)', () => {
  it('PBKDF2-HMAC-SHA256 matches RFC 7914 §11 (P="passwd", S="salt", c=1, 64 bytes)', async () => {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('passwd'), 'PBKDF2', false, [
      'deriveBits',
    ]);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: new TextEncoder().encode('salt'), iterations: 1 },
      key,
      512,
    );
    expect(hex(bits)).toBe(
      '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc' +
        '49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
    );
  });

  it('AES-256-GCM matches the GCM specification, test case 14 (zero key, zero IV, one zero block)', async () => {
    const key = await crypto.subtle.importKey('raw', new Uint8Array(32), 'AES-GCM', false, ['encrypt']);
    const out = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, key, new Uint8Array(16));
    expect(hex(out)).toBe('cea7403d4d606b6e074ec5d3baf39d18' + 'd0d1c8a799996bf0265b98b5d48ab919');
  });

  it('base64 round-trips every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(fromBase64(toBase64(all))).toEqual(all);
  });
});

describe('vault crypto: lifecycle', () => {
  let material: VaultKeyMaterial;
  let vaultKey: VaultKey;

  it('creates key material at 600,000 iterations that the server schema accepts', async () => {
    ({ material, vaultKey } = await createVault('my master password'));
    expect(material.kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: VAULT_MIN_ITERATIONS });
    expect(fromBase64(material.salt)).toHaveLength(16);
    expect(fromBase64(material.iv)).toHaveLength(12);
    expect(VaultKeyMaterialSchema.parse(material)).toEqual(material);
    expect(JSON.stringify(material)).not.toContain('my master password');
  });

  it('keeps the unlocked key non-extractable', async () => {
    await expect(crypto.subtle.exportKey('raw', vaultKey)).rejects.toThrow();
  });

  it('encrypts a credential so that nothing of it is readable, and decrypts it back', async () => {
    const encrypted = await encryptCredential(vaultKey, place, secret);
    expect(encrypted.id).toBe('cred-1');
    expect(fromBase64(encrypted.iv)).toHaveLength(12);
    const blob = JSON.stringify(encrypted) + Buffer.from(fromBase64(encrypted.ciphertext)).toString('latin1');
    for (const part of [secret.username, secret.password, secret.note]) expect(blob).not.toContain(part);
    expect(await decryptCredential(vaultKey, place, encrypted)).toEqual(secret);
  });

  it('uses a fresh IV for every encryption', async () => {
    const a = await encryptCredential(vaultKey, place, secret);
    const b = await encryptCredential(vaultKey, place, secret);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('unlocks with the right password and fails with a wrong one', async () => {
    const encrypted = await encryptCredential(vaultKey, place, secret);
    const again = await unlockVault('my master password', material);
    expect(await decryptCredential(again, place, encrypted)).toEqual(secret);
    expect((await vaultError(unlockVault('my master passwork', material))).reason).toBe('wrong-password');
  });

  it('detects a changed ciphertext, a changed IV, and a credential moved to another link, user or id', async () => {
    const encrypted = await encryptCredential(vaultKey, place, secret);
    const flipped = fromBase64(encrypted.ciphertext);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const otherIv = fromBase64(encrypted.iv);
    otherIv[11] = (otherIv[11] ?? 0) ^ 1;
    const attempts = [
      decryptCredential(vaultKey, place, { ...encrypted, ciphertext: toBase64(flipped) }),
      decryptCredential(vaultKey, place, { ...encrypted, iv: toBase64(otherIv) }),
      decryptCredential(vaultKey, { ...place, linkId: 'link-2' }, encrypted),
      decryptCredential(vaultKey, { ...place, userId: 'user-2' }, encrypted),
      decryptCredential(vaultKey, place, { ...encrypted, id: 'cred-2' }),
    ];
    for (const attempt of attempts) expect((await vaultError(attempt)).reason).toBe('tampered');
  });

  it('refuses key material below 600,000 iterations (downgrade) before deriving anything', async () => {
    const weak = { ...material, kdf: { ...material.kdf, iterations: 100_000 } };
    expect((await vaultError(unlockVault('my master password', weak))).reason).toBe('weak-parameters');
    expect((await vaultError(createVault('x', 100_000))).reason).toBe('weak-parameters');
    expect(VaultKeyMaterialSchema.safeParse(weak).success).toBe(false);
  });

  it('changes the master password by re-wrapping: old credentials still open, the old password no longer does', async () => {
    const encrypted = await encryptCredential(vaultKey, place, secret);
    const changed = await changeMasterPassword('my master password', 'a new master password', material);
    expect(changed.salt).not.toBe(material.salt);
    expect((await vaultError(unlockVault('my master password', changed))).reason).toBe('wrong-password');
    const key = await unlockVault('a new master password', changed);
    expect(await decryptCredential(key, place, encrypted)).toEqual(secret);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    expect((await vaultError(changeMasterPassword('wrong', 'x', material))).reason).toBe('wrong-password');
  });
});
