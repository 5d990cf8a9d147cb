import { describe, expect, it } from 'vitest';
import { titleFor } from './route-title';

describe('document titles', () => {
  it('names each route, the app after it; the landing page stands alone', () => {
    expect(titleFor('/dashboard')).toBe('Your Links · Linkwise');
    expect(titleFor('/profile/')).toBe('Profile · Linkwise');
    expect(titleFor('/extension/install')).toBe('Browser extension · Linkwise');
    expect(titleFor('/')).toBe('Linkwise: save links, find them again');
    expect(titleFor('/nowhere')).toBe('Page not found · Linkwise');
  });
});
