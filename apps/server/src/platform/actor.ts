import type { SubscriptionRow } from '../db/schema.js';

/** The signed-in user making a request, resolved from the bearer token in one query. */
export interface Actor {
  userId: string;
  tokenId: string;
  email: string;
  username: string;
  createdAt: number;
  /** Links the user owned when the request began (the trigger-kept counter, read with the token). */
  linkCount: number;
  subscription: SubscriptionRow | undefined;
  /** What the token is: a signed-in device or a personal API token (with its scope). */
  tokenKind?: 'web' | 'extension' | 'api';
  /** API tokens: 'read' allows only reading; null or absent: full access. */
  scope?: 'read' | 'write' | null;
}
