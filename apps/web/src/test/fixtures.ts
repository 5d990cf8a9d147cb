import type { Link, User } from '@linkwise/contract';

/** A Free user; tests override what they are about. */
export const testUser = (over: Partial<User> = {}): User => ({
  id: 'user-1',
  email: 'ada@example.com',
  username: 'ada',
  createdAt: '2025-01-01T00:00:00.000Z',
  subscriptionStatus: 'free',
  subscriptionPlan: null,
  subscriptionEndDate: null,
  linkLimit: 30,
  ...over,
});

/** An analysed link with nothing set but its id, URL and title; tests override the rest. */
export const testLink = (over: Partial<Link> = {}): Link => ({
  id: 'l1',
  url: 'https://example.com/a',
  title: 'Example',
  description: '',
  aiDescription: null,
  category: null,
  tags: [],
  notes: '',
  isRead: false,
  isReadLater: false,
  credentials: [],
  favicon: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  analysisStatus: 'done',
  ...over,
});
