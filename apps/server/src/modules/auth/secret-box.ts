import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Encrypts what the server must read back later (TOTP secrets) with AES-256-GCM under a key derived
 * from SECRET_KEY, or from DATA_DIR/secret.key, written once on first start when SECRET_KEY is unset.
 * A database copied without the key yields no secret.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** The server secret itself, for deriving other keys (the ALTCHA signing key). */
  constructor(readonly secret: string) {
    this.key = createHash('sha256').update(`linkwise-secret-box:${secret}`).digest();
  }

  /** SECRET_KEY when set, else the key file in the data folder (created with mode 0600 when missing). */
  static fromConfig(config: { SECRET_KEY?: string | undefined; dataDir: string }): SecretBox {
    if (config.SECRET_KEY) return new SecretBox(config.SECRET_KEY);
    const file = path.join(config.dataDir, 'secret.key');
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      try {
        // 'wx': two processes starting together cannot overwrite each other's key.
        writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return new SecretBox(readFileSync(file, 'utf8').trim());
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url; `context` (the user id) binds it to its row. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plaintext, or undefined when the value was sealed under another key or context. */
  open(sealed: string, context: string): string | undefined {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
