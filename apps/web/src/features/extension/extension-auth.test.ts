import { ApiError } from '@linkwise/contract';
import { describe, expect, it } from 'vitest';
import { ExtensionAuthSchema, extensionAuthError } from './extension-auth-page';

const apiError = (status: number, code = 'X') => new ApiError(status, 'server words', code, undefined, undefined);

describe('extension auth messages (spec §8)', () => {
  it('maps statuses to the spec’s sentences', () => {
    expect(extensionAuthError(apiError(401), 'login')).toBe(
      'Invalid email or password. Please check your credentials.',
    );
    expect(extensionAuthError(apiError(409), 'login')).toBe('Account issue. Please try registering instead.');
    expect(extensionAuthError(apiError(409), 'register')).toBe(
      'This email or username is already taken. Please try signing in or use different credentials.',
    );
    expect(extensionAuthError(apiError(400), 'register')).toBe('Please fill in all required fields correctly.');
    expect(extensionAuthError(new TypeError('Failed to fetch'), 'login')).toBe(
      'Connection failed. Please check your internet connection and try again.',
    );
  });

  it('treats username and confirmation as optional, matching the confirmation only when given', () => {
    const base = { email: 'a@example.com', password: 'secret1' };
    expect(ExtensionAuthSchema.safeParse(base).success).toBe(true);
    expect(ExtensionAuthSchema.safeParse({ ...base, confirmPassword: '' }).success).toBe(true);
    const mismatch = ExtensionAuthSchema.safeParse({ ...base, confirmPassword: 'other1' });
    expect(mismatch.error?.issues[0]?.message).toBe("Passwords don't match");
    expect(ExtensionAuthSchema.safeParse({ ...base, username: 'ab' }).error?.issues[0]?.message).toBe(
      'Username must be at least 3 characters',
    );
  });
});
