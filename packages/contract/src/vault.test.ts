import { createDecipheriv, pbkdf2Sync } from 'node:crypto';
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

  it('PBKDF2-HMAC-SHA256 matches RFC 7914 §11 at 80,000 iterations (P="Password", S="NaCl")', async () => {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('Password'), 'PBKDF2', false, [
      'deriveBits',
    ]);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: new TextEncoder().encode('NaCl'), iterations: 80_000 },
      key,
      512,
    );
    expect(hex(bits)).toBe(
      '4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56' +
        'a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d',
    );
  });

  it('AES-256-GCM with additional data matches the GCM specification, test case 16', async () => {
    const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
    const key = await crypto.subtle.importKey(
      'raw',
      bytes('feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308'),
      'AES-GCM',
      false,
      ['encrypt', 'decrypt'],
    );
    const params = {
      name: 'AES-GCM',
      iv: bytes('cafebabefacedbaddecaf888'),
      additionalData: bytes('feedfacedeadbeeffeedfacedeadbeefabaddad2'),
    };
    const plaintext =
      'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72' +
      '1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39';
    const out = await crypto.subtle.encrypt(params, key, bytes(plaintext));
    expect(hex(out)).toBe(
      '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' +
        '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662' +
        '76fc6ece0f4e1768cddf8853bb2d551b',
    );
    expect(hex(await crypto.subtle.decrypt(params, key, out))).toBe(plaintext);
    // The same ciphertext under different additional data does not open.
    await expect(crypto.subtle.decrypt({ ...params, additionalData: bytes('00') }, key, out)).rejects.toThrow();
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
    // Thunks, so each attempt starts only when awaited (an eager rejection would go unhandled).
    const attempts = [
      () => decryptCredential(vaultKey, place, { ...encrypted, ciphertext: toBase64(flipped) }),
      () => decryptCredential(vaultKey, place, { ...encrypted, iv: toBase64(otherIv) }),
      () => decryptCredential(vaultKey, { ...place, linkId: 'link-2' }, encrypted),
      () => decryptCredential(vaultKey, { ...place, userId: 'user-2' }, encrypted),
      () => decryptCredential(vaultKey, place, { ...encrypted, id: 'cred-2' }),
    ];
    for (const attempt of attempts) expect((await vaultError(attempt())).reason).toBe('tampered');
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

/**
 * A vault written by version 1 of the format, kept as a fixed vector: any later change that would
 * leave existing users unable to open their credentials fails here.
 */
const GOLDEN = {
  password: 'golden master password',
  material: {
    version: 1,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 },
    salt: 'sZb2XDsrkry06AJbXNRy6Q==',
    iv: 'WO4E9A93c/PpI354',
    wrappedKey: 'BfryayU6IqRoQTgy/3MSbOYN7K6YhkI3wdy+ltwExkJ5mcdgTK+OUpWlVKcvX23j',
  } satisfies VaultKeyMaterial,
  credential: {
    id: 'cred-1',
    iv: '9ZDL88WmDcXFqdMY',
    ciphertext:
      'Uvrwva8pU8G7htQFIRJlc/lE+oIgiXYc8yOrrK8fCZhEy8p+lysI0tAWyjW9xhRssmx/YBSy46Axk1OiW33wS+Qjv26XFBRWLKU0zT6' +
      'HcGH5Z6hSZPDRQQEfnOnfGiT2heZk7yqNx/YliQ==',
    v: 1,
  },
};

describe('vault crypto: the stored format (version 1)', () => {
  it('opens a fixed vault and credential written by version 1', async () => {
    const key = await unlockVault(GOLDEN.password, GOLDEN.material);
    expect(await decryptCredential(key, place, GOLDEN.credential)).toEqual(secret);
  });

  it('is exactly the documented construction: an independent implementation (node:crypto) opens it', () => {
    const { material, credential } = GOLDEN;
    const kek = pbkdf2Sync(GOLDEN.password, Buffer.from(material.salt, 'base64'), 600_000, 32, 'sha256');
    const open = (key: Buffer, iv: string, sealed: Buffer, aad?: string) => {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      if (aad !== undefined) decipher.setAAD(Buffer.from(aad));
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
    };
    const vaultKey = open(kek, material.iv, Buffer.from(material.wrappedKey, 'base64'));
    expect(vaultKey).toHaveLength(32);
    const plain = open(
      vaultKey,
      credential.iv,
      Buffer.from(credential.ciphertext, 'base64'),
      `linkwise-credential:v1:${place.userId}:${place.linkId}:${credential.id}`,
    );
    expect(JSON.parse(plain.toString('utf8'))).toEqual({
      username: secret.username,
      password: secret.password,
      note: secret.note,
    });
  });

  it('fails to unlock when any part of the key material was changed', async () => {
    const flip = (b64: string) => {
      const bytes = fromBase64(b64);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
      return toBase64(bytes);
    };
    const m = GOLDEN.material;
    for (const changed of [
      { ...m, wrappedKey: flip(m.wrappedKey) },
      { ...m, iv: flip(m.iv) },
      { ...m, salt: flip(m.salt) },
      { ...m, kdf: { ...m.kdf, iterations: 600_001 } },
    ]) {
      expect((await vaultError(unlockVault(GOLDEN.password, changed))).reason).toBe('wrong-password');
    }
  });

  it('refuses a credential with a cut-off tag, and formats it does not know', async () => {
    const key = await unlockVault(GOLDEN.password, GOLDEN.material);
    const sealed = fromBase64(GOLDEN.credential.ciphertext);
    const cut = { ...GOLDEN.credential, ciphertext: toBase64(sealed.subarray(0, sealed.length - 1)) };
    expect((await vaultError(decryptCredential(key, place, cut))).reason).toBe('tampered');
    const newer = { ...GOLDEN.credential, v: 2 };
    expect((await vaultError(decryptCredential(key, place, newer))).reason).toBe('unsupported');
    const newerVault = { ...GOLDEN.material, version: 2 } as unknown as VaultKeyMaterial;
    expect((await vaultError(unlockVault(GOLDEN.password, newerVault))).reason).toBe('unsupported');
  });
});
