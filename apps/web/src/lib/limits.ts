import type { User } from '@linkwise/contract';

export const DEFAULT_LINK_LIMIT = 30;

export interface ListSubscription {
  canAddLinks: boolean;
  totalLinks: number;
  linkLimit: number | null;
}

/** The client rule of spec §5: Free may add while count < limit; Pro is unlimited; no user, nothing. */
export function clientLimit(user: User | null, count: number): { canAdd: boolean; remaining: number | null } {
  if (!user) return { canAdd: false, remaining: 0 };
  if (user.subscriptionStatus === 'active' || user.linkLimit === null) return { canAdd: true, remaining: null };
  const limit = user.linkLimit ?? DEFAULT_LINK_LIMIT;
  return { canAdd: count < limit, remaining: Math.max(0, limit - count) };
}

/**
 * Whether Add Link may open the dialog: the server's `canAddLinks` when the list answered it, else
 * the client rule against the actual total (spec §5).
 */
export function canAddLink(
  user: User | null,
  subscription: ListSubscription | undefined,
  actualTotal: number,
): boolean {
  if (!user) return false;
  if (subscription) return subscription.canAddLinks;
  return clientLimit(user, actualTotal).canAdd;
}
