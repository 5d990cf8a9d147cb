import { describe, expect, it } from 'vitest';
import { analysisFailureText, BulkRequestSchema, TagRenameSchema } from './library.js';
import { withDefaultScheme } from './links.js';

describe('bare addresses', () => {
  it('reads a host name without a scheme as https, and leaves anything else as typed', () => {
    expect(withDefaultScheme(' example.com ')).toBe('https://example.com');
    expect(withDefaultScheme('example.com/a?b#c')).toBe('https://example.com/a?b#c');
    expect(withDefaultScheme('example.com:8080/x')).toBe('https://example.com:8080/x');
    expect(withDefaultScheme('localhost:3000')).toBe('https://localhost:3000');
    expect(withDefaultScheme('http://example.com')).toBe('http://example.com');
    expect(withDefaultScheme('ftp://example.com')).toBe('ftp://example.com');
    expect(withDefaultScheme('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(withDefaultScheme('not a url')).toBe('not a url');
    expect(withDefaultScheme('word')).toBe('word');
  });
});

describe('analysis failures in plain words', () => {
  it('names each reason, with the HTTP status and its meaning when known', () => {
    expect(analysisFailureText({ reason: 'http-error', status: 404 })).toBe('The page answered 404 (not found)');
    expect(analysisFailureText({ reason: 'http-error', status: 418 })).toBe('The page answered 418');
    expect(analysisFailureText({ reason: 'unreachable', status: null })).toBe('The site could not be reached');
    expect(analysisFailureText({ reason: 'timeout', status: null })).toBe('The page took too long to answer');
    expect(analysisFailureText({ reason: 'blocked', status: null })).toMatch(/private network/);
    expect(analysisFailureText({ reason: 'not-html', status: null })).toBe('The address is not a web page');
  });
});

describe('library requests', () => {
  it('cleans tag names and refuses empty ones or commas', () => {
    expect(TagRenameSchema.parse({ name: '  ##Machine   Learning ' })).toEqual({ name: 'Machine Learning' });
    expect(TagRenameSchema.safeParse({ name: ' # ' }).error?.issues[0]?.message).toBe('Tag name is required');
    expect(TagRenameSchema.safeParse({ name: 'a,b' }).success).toBe(false);
    // Invisible characters are dropped (a name of nothing else is empty); joiners inside emoji stay.
    expect(TagRenameSchema.safeParse({ name: '\u200b' }).error?.issues[0]?.message).toBe('Tag name is required');
    expect(TagRenameSchema.parse({ name: '\ufeff#data\u200bviz\u00ad' })).toEqual({ name: 'dataviz' });
    expect(TagRenameSchema.parse({ name: '👩‍💻 🏴󠁧󠁢󠁳󠁣󠁴󠁿' })).toEqual({ name: '👩‍💻 🏴󠁧󠁢󠁳󠁣󠁴󠁿' });
  });

  it('checks each bulk action’s own fields', () => {
    expect(BulkRequestSchema.parse({ action: 'set-category', ids: ['a'], category: '  ' })).toEqual({
      action: 'set-category',
      ids: ['a'],
      category: null,
    });
    expect(BulkRequestSchema.safeParse({ action: 'add-tags', ids: ['a'], tags: [] }).success).toBe(false);
    expect(BulkRequestSchema.safeParse({ action: 'explode', ids: ['a'] }).success).toBe(false);
    expect(
      BulkRequestSchema.safeParse({ action: 'delete', ids: Array.from({ length: 1001 }, (_, i) => `${i}`) }).success,
    ).toBe(false);
  });
});
