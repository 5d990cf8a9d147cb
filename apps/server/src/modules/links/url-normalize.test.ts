import { describe, expect, it } from 'vitest';
import { duplicateKey, hostTitle } from './url-normalize.js';

describe('duplicateKey', () => {
  it('treats cosmetic variants of one address as the same link', () => {
    const variants = [
      'https://www.Example.com/articles/42/',
      'http://example.com/articles/42',
      'https://example.com:443/articles/42#comments',
      'https://example.com/articles/42?utm_source=newsletter&utm_medium=email',
      'https://example.com/articles/42?fbclid=abc',
    ];
    const keys = new Set(variants.map(duplicateKey));
    expect(keys.size).toBe(1);
  });

  it('keeps what changes the page: path case, query values, app routes', () => {
    expect(duplicateKey('https://example.com/A')).not.toBe(duplicateKey('https://example.com/a'));
    expect(duplicateKey('https://example.com/?id=1')).not.toBe(duplicateKey('https://example.com/?id=2'));
    expect(duplicateKey('https://app.example.com/#/inbox')).not.toBe(duplicateKey('https://app.example.com/#/sent'));
  });

  it('sorts query parameters', () => {
    expect(duplicateKey('https://e.com/s?b=2&a=1')).toBe(duplicateKey('https://e.com/s?a=1&b=2'));
  });
});

describe('hostTitle', () => {
  it('is the host without www', () => {
    expect(hostTitle('https://www.nytimes.com/2026/11/22/x.html')).toBe('nytimes.com');
  });
});
