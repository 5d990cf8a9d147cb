import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** Time-ordered unique id (UUIDv7): new rows land at the end of their indexes. */
export const newId = (): string => uuidv7();

/** 256 bits of randomness, URL-safe: bearer tokens and capability URLs. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as their SHA-256, so a database leak yields no usable token. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
