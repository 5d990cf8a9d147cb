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
}
