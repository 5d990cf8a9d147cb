import { describe, expect, it } from 'vitest';
import { editDistance, spellingKey, spellingSuggestions } from './tag-suggestions.js';

const tag = (name: string, count = 1) => ({ id: name, name, count });

describe('tag merge suggestions', () => {
  it('treats case, separators, accents and plural endings as one spelling', () => {
    expect(spellingKey('Java-Script')).toBe(spellingKey('javascript'));
    expect(spellingKey('machine_learning')).toBe(spellingKey('Machine Learning'));
    expect(spellingKey('Tutorials')).toBe(spellingKey('tutorial'));
    expect(spellingKey('Libraries')).toBe(spellingKey('library'));
    expect(spellingKey('Café')).toBe(spellingKey('cafe'));
    // Short words and double s stay as they are: "css" is not the plural of "cs".
    expect(spellingKey('css')).not.toBe(spellingKey('cs'));
    expect(spellingKey('c++')).not.toBe(spellingKey('c'));
  });

  it('measures edit distance and stops early past the bound', () => {
    expect(editDistance('programing', 'programming', 1)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('react', 'angular', 1)).toBe(2);
  });

  it('suggests merging into the more used spelling, each variant once, and leaves different words alone', () => {
    const suggestions = spellingSuggestions([
      tag('tutorial', 5),
      tag('Tutorials', 2),
      tag('tutorial-s', 1),
      tag('programming', 3),
      tag('programing', 1),
      tag('react', 4),
      tag('redux', 4),
      tag('go', 2),
      tag('js', 2),
    ]);
    expect(suggestions).toEqual([
      { from: 'Tutorials', into: 'tutorial', why: 'spelling' },
      { from: 'tutorial-s', into: 'tutorial', why: 'spelling' },
      { from: 'programing', into: 'programming', why: 'spelling' },
    ]);
  });
});
