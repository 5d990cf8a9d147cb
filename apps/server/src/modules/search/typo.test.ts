import { describe, expect, it } from 'vitest';
import { allowedEdits, closeTerms, editDistance } from './typo.js';

describe('typo suggestions', () => {
  const stems = ['kubernet', 'network', 'connect', 'pool', 'recip', 'marathon', 'run', 'kub', 'netlifi'];

  it('forgives 1 edit in words of 4-7 letters and 2 from 8', () => {
    expect([allowedEdits('abc'), allowedEdits('abcd'), allowedEdits('abcdefg'), allowedEdits('abcdefgh')]).toEqual([
      0, 1, 1, 2,
    ]);
  });

  it('counts a swap of neighbouring letters as one edit', () => {
    expect(editDistance('netwrok', 'network', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(Infinity);
    expect(editDistance('', 'ab', 2)).toBe(2);
  });

  it('finds the stem a misspelt word stands for', () => {
    expect(closeTerms('kubernets', stems)).toEqual(['kubernet']);
    expect(closeTerms('conection', stems)).toEqual(['connect']);
    expect(closeTerms('netwrok', stems)).toEqual(['network']);
    expect(closeTerms('maraton', stems)).toEqual(['marathon']);
    expect(closeTerms('recipies', stems)).toEqual(['recip']);
  });

  it('does not take a short stem for a long word, nor correct short words', () => {
    expect(closeTerms('kubxyzzy', stems)).toEqual([]);
    expect(closeTerms('rnu', stems)).toEqual([]);
    expect(closeTerms('zebra', stems)).toEqual([]);
  });
});
