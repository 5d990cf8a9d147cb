import { z } from 'zod';

/**
 * The credential vault, zero knowledge: everything here runs in the browser or the extension with
 * WebCrypto. The server stores only the key material below and credential ciphertexts; it never
 * sees a master password, the vault key or a credential.
 *
 * master password ─PBKDF2-SHA256 (≥ 600,000 iterations, 16-byte salt)→ key-encryption key
 * (AES-GCM-256, non-extractable) ─wraps→ random 256-bit vault key ─AES-256-GCM, fresh 12-byte IV,
 * additional data = user id + link id + credential id→ each credential {username, password, note}.
 */

export const VAULT_FORMAT_VERSION = 1;
/** OWASP's figure for PBKDF2-HMAC-SHA256; key material with fewer iterations is refused. */
export const VAULT_MIN_ITERATIONS = 600_000;
export const VAULT_MAX_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const KEY_BYTES = 32;
const TAG_BYTES = 16;

const base64Of = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: `${what} must be base64` })
    .refine((v) => decodedLength(v) === bytes, { error: `${what} must encode ${bytes} bytes` });

function decodedLength(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - padding;
}

export const VaultKeyMaterialSchema = z.object({
  version: z.literal(VAULT_FORMAT_VERSION, { error: `Unsupported vault format (expected ${VAULT_FORMAT_VERSION})` }),
  kdf: z.object({
    name: z.literal('PBKDF2', { error: 'The key derivation must be PBKDF2' }),
    hash: z.literal('SHA-256', { error: 'The key derivation hash must be SHA-256' }),
    iterations: z
      .number()
      .int()
      .min(VAULT_MIN_ITERATIONS, { error: `Key derivation needs at least ${VAULT_MIN_ITERATIONS} iterations` })
      .max(VAULT_MAX_ITERATIONS, { error: `Key derivation allows at most ${VAULT_MAX_ITERATIONS} iterations` }),
  }),
  salt: base64Of(SALT_BYTES, 'salt'),
  iv: base64Of(IV_BYTES, 'iv'),
  wrappedKey: base64Of(KEY_BYTES + TAG_BYTES, 'wrappedKey'),
});
export type VaultKeyMaterial = z.infer<typeof VaultKeyMaterialSchema>;

/**
 * PUT /api/vault: new key material plus the wrapped key it replaces (compare-and-set), so two
 * devices can never silently overwrite each other's vault: `null` creates the vault and fails if
 * one exists; a wrapped key replaces that exact material (a master-password change) and fails if
 * the vault changed or was reset meanwhile.
 */
export const VaultPutSchema = VaultKeyMaterialSchema.extend({
  replaces: base64Of(KEY_BYTES + TAG_BYTES, 'replaces')
    .nullable()
    .describe('the wrappedKey being replaced, or null to create the vault'),
});
export type VaultPut = z.infer<typeof VaultPutSchema>;

export const VaultResponseSchema = z.object({
  data: VaultKeyMaterialSchema.nullable().describe('null until the user sets a master password'),
  updatedAt: z.string().nullable(),
});
export type VaultResponse = z.infer<typeof VaultResponseSchema>;

/** A credential as the user sees it once decrypted. */
export interface PlainCredential {
  id: string;
  username: string;
  password: string;
  note: string;
}

/** Where a credential belongs: part of its additional data, so a moved ciphertext fails to open. */
export interface CredentialPlace {
  userId: string;
  linkId: string;
}

export class VaultError extends Error {
  constructor(
    readonly reason: 'wrong-password' | 'weak-parameters' | 'unsupported' | 'tampered',
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

/**
 * The unlocked vault key (a WebCrypto CryptoKey). Named through `globalThis.crypto` so the type
 * resolves both in browsers (DOM types) and in Node (its WebCrypto types).
 */
export type VaultKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

const subtle = () => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new VaultError('unsupported', 'This browser cannot encrypt credentials (WebCrypto is missing).');
  return s;
};
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

const randomBytes = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));

/** Master password → key-encryption key (non-extractable; it can only wrap and unwrap). */
async function deriveKek(masterPassword: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<VaultKey> {
  const base = await subtle().importKey('raw', encoder.encode(masterPassword), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

function checkParameters(material: VaultKeyMaterial): void {
  if (material.version !== VAULT_FORMAT_VERSION) {
    throw new VaultError('unsupported', 'This vault was written by a newer version of Linkwise.');
  }
  const parsed = VaultKeyMaterialSchema.safeParse(material);
  if (!parsed.success) {
    throw new VaultError(
      'weak-parameters',
      `Refusing vault key material that does not meet the minimum (${VAULT_MIN_ITERATIONS} PBKDF2-SHA256 iterations).`,
    );
  }
}

async function wrapWith(vaultKey: VaultKey, masterPassword: string, iterations: number): Promise<VaultKeyMaterial> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const kek = await deriveKek(masterPassword, salt, iterations);
  const wrapped = await subtle().wrapKey('raw', vaultKey, kek, { name: 'AES-GCM', iv });
  return {
    version: VAULT_FORMAT_VERSION,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations },
    salt: toBase64(salt),
    iv: toBase64(iv),
    wrappedKey: toBase64(new Uint8Array(wrapped)),
  };
}

async function unwrap(masterPassword: string, material: VaultKeyMaterial, extractable: boolean): Promise<VaultKey> {
  checkParameters(material);
  const kek = await deriveKek(masterPassword, fromBase64(material.salt), material.kdf.iterations);
  try {
    return await subtle().unwrapKey(
      'raw',
      fromBase64(material.wrappedKey),
      kek,
      { name: 'AES-GCM', iv: fromBase64(material.iv) },
      { name: 'AES-GCM', length: 256 },
      extractable,
      ['encrypt', 'decrypt'],
    );
  } catch {
    throw new VaultError('wrong-password', 'Wrong master password.');
  }
}

/** First use: a fresh random vault key, wrapped under the master password. */
export async function createVault(
  masterPassword: string,
  iterations = VAULT_MIN_ITERATIONS,
): Promise<{ material: VaultKeyMaterial; vaultKey: VaultKey }> {
  if (iterations < VAULT_MIN_ITERATIONS) {
    throw new VaultError('weak-parameters', `Key derivation needs at least ${VAULT_MIN_ITERATIONS} iterations.`);
  }
  const extractable = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const material = await wrapWith(extractable, masterPassword, iterations);
  // Hand out a non-extractable copy: the key in memory can encrypt and decrypt, never be exported.
  return { material, vaultKey: await unlockVault(masterPassword, material) };
}

/** Unlock: a wrong password fails to unwrap (AES-GCM authenticates the wrapped key). */
export function unlockVault(masterPassword: string, material: VaultKeyMaterial): Promise<VaultKey> {
  return unwrap(masterPassword, material, false);
}

/** Change the master password: the same vault key re-wrapped; no credential is re-encrypted. */
export async function changeMasterPassword(
  currentPassword: string,
  newPassword: string,
  material: VaultKeyMaterial,
  iterations = Math.max(material.kdf.iterations, VAULT_MIN_ITERATIONS),
): Promise<VaultKeyMaterial> {
  const key = await unwrap(currentPassword, material, true);
  return wrapWith(key, newPassword, iterations);
}

const additionalData = (place: CredentialPlace, credentialId: string) =>
  encoder.encode(`linkwise-credential:v${VAULT_FORMAT_VERSION}:${place.userId}:${place.linkId}:${credentialId}`);

export async function encryptCredential(
  vaultKey: VaultKey,
  place: CredentialPlace,
  credential: PlainCredential,
): Promise<{ id: string; iv: string; ciphertext: string; v: number }> {
  const iv = randomBytes(IV_BYTES);
  const plaintext = encoder.encode(
    JSON.stringify({ username: credential.username, password: credential.password, note: credential.note }),
  );
  const ciphertext = await subtle().encrypt(
    { name: 'AES-GCM', iv, additionalData: additionalData(place, credential.id) },
    vaultKey,
    plaintext,
  );
  return {
    id: credential.id,
    iv: toBase64(iv),
    ciphertext: toBase64(new Uint8Array(ciphertext)),
    v: VAULT_FORMAT_VERSION,
  };
}

const PlainSchema = z.object({ username: z.string(), password: z.string(), note: z.string().default('') });

export async function decryptCredential(
  vaultKey: VaultKey,
  place: CredentialPlace,
  encrypted: { id: string; iv: string; ciphertext: string; v: number },
): Promise<PlainCredential> {
  if (encrypted.v !== VAULT_FORMAT_VERSION) {
    throw new VaultError('unsupported', 'This credential was written by a newer version of Linkwise.');
  }
  let plaintext: ArrayBuffer;
  try {
    plaintext = await subtle().decrypt(
      { name: 'AES-GCM', iv: fromBase64(encrypted.iv), additionalData: additionalData(place, encrypted.id) },
      vaultKey,
      fromBase64(encrypted.ciphertext),
    );
  } catch {
    throw new VaultError('tampered', 'This credential cannot be decrypted: it was changed or belongs elsewhere.');
  }
  const parsed = PlainSchema.safeParse(JSON.parse(decoder.decode(plaintext)));
  if (!parsed.success) throw new VaultError('tampered', 'This credential has an unexpected shape.');
  return { id: encrypted.id, ...parsed.data };
}
