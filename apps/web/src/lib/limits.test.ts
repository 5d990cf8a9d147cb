import type { User } from '@linkwise/contract';
import { describe, expect, it } from 'vitest';
import { testUser } from '../test/fixtures';
import { canAddLink, clientLimit } from './limits';

const user = (over: Partial<User> = {}): User => testUser({ id: 'u1', username: 'alice', ...over });

describe('client limit rule (spec §5)', () => {
  it('allows Free users below the limit and counts what remains, never below zero', () => {
    expect(clientLimit(user(), 29)).toEqual({ canAdd: true, remaining: 1 });
    expect(clientLimit(user(), 30)).toEqual({ canAdd: false, remaining: 0 });
    expect(clientLimit(user(), 45)).toEqual({ canAdd: false, remaining: 0 });
  });

  it('uses 30 when the limit is missing, unlimited for Pro, nothing without a user', () => {
    expect(clientLimit(user({ linkLimit: undefined as unknown as number }), 30).canAdd).toBe(false);
    expect(clientLimit(user({ subscriptionStatus: 'active', linkLimit: null }), 1000)).toEqual({
      canAdd: true,
      remaining: null,
    });
    expect(clientLimit(null, 0)).toEqual({ canAdd: false, remaining: 0 });
  });

  it('treats canceled and past-due accounts as Free', () => {
    expect(clientLimit(user({ subscriptionStatus: 'past_due' }), 30).canAdd).toBe(false);
    expect(clientLimit(user({ subscriptionStatus: 'canceled' }), 3).canAdd).toBe(true);
  });
});

describe('Add Link gate', () => {
  it("trusts the list's canAddLinks over the client rule", () => {
    expect(canAddLink(user(), { canAddLinks: false, totalLinks: 3, linkLimit: 30 }, 3)).toBe(false);
    expect(canAddLink(user(), { canAddLinks: true, totalLinks: 40, linkLimit: 30 }, 40)).toBe(true);
  });

  it('falls back to the client rule against the actual total, and refuses without a user', () => {
    expect(canAddLink(user(), undefined, 29)).toBe(true);
    expect(canAddLink(user(), undefined, 30)).toBe(false);
    expect(canAddLink(null, { canAddLinks: true, totalLinks: 0, linkLimit: 30 }, 0)).toBe(false);
  });
});
