import { tagKey } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAbbreviation, keyphraseTags } from '../src/modules/analysis/keyphrases.js';
import { pageText, type Embedder } from '../src/modules/ml/embedder.js';
import { ALL_MINILM_L6_V2 } from '../src/modules/ml/local-models.js';
import { TransformerEmbedder } from '../src/modules/ml/offline-embedder.js';
import { TagVectorCache } from '../src/modules/ml/tag-vectors.js';
import { extractFacts } from '../src/modules/pages/extract-facts.js';
import type { PageFacts } from '../src/modules/pages/extractor.js';
import { loadCorpus } from './corpus.js';
import { provisionedModels } from './models.js';

const corpus = loadCorpus();
const MODELS = provisionedModels();

// Site furniture that must never be a tag of a page that is not about it (bench/tag-judgements.json).
const FURNITURE =
  /\b(facebook|twitter|tweet|linkedin|pinterest|share|sharing|subscribe|newsletter|cookies?|menu|login|sign in|comments?)\b/i;

describe.skipIf(!corpus || !MODELS)('keyphrase tags on corpus pages', () => {
  let embedder: Embedder;
  const facts = (name: string): PageFacts => {
    const page = corpus!.find((p) => p.name === name)!;
    return extractFacts(page.html.toString('utf8'), page.expected.sourceUrl);
  };
  const tags = async (page: PageFacts, existing: string[] = [], cache?: TagVectorCache) => {
    const [vector] = await embedder.embed([pageText(page.title, page.description, page.text)]);
    return keyphraseTags(page, vector!, existing, embedder, cache);
  };

  beforeAll(() => {
    embedder = new TransformerEmbedder(ALL_MINILM_L6_V2, MODELS!, 1);
  });
  afterAll(() => embedder.close());

  it('tags Bob Dylan’s Wikipedia page with his name and music, nothing from the page’s furniture', async () => {
    const result = await tags(facts('wikipedia'));
    expect(result.length).toBeLessThanOrEqual(5);
    expect(result).toContain('Bob Dylan');
    expect(result.map(tagKey)).toEqual(expect.arrayContaining(['folk music']));
    expect(result.filter((t) => FURNITURE.test(t))).toEqual([]);
  });

  // Pages whose text carried share buttons, "Follow us on Facebook" or sign-up boxes.
  it.each([
    ['the-verge', ['siri', 'apple']],
    ['npr', ['taiwan', 'pandemic']],
    ['recode', ['uber', 'funding']],
    ['the-boston-globe', ['diversity', 'ellen pao']],
    ['computerworld', ['ai certifications']],
    ['arstechnica', ['youtube']],
  ])('%s: the page’s topics and no share-widget or sign-up word', async (name, expected) => {
    const result = await tags(facts(name));
    expect(result.length).toBeGreaterThan(0);
    expect(result.length).toBeLessThanOrEqual(5);
    expect(result.map(tagKey)).toEqual(expect.arrayContaining(expected));
    expect(result.filter((t) => FURNITURE.test(t))).toEqual([]);
  });

  it('never tags a contraction, straight or curly ("didn’t")', async () => {
    const page: PageFacts = {
      ...facts('wired'),
      title: 'The ice shelf that didn’t break',
      description: 'Scientists didn’t expect the Larsen ice shelf to hold; they’ll watch it all winter.',
      text: 'The Larsen ice shelf didn’t break this summer. Glaciologists didn’t expect that, and they’ll keep watching the ice shelf. We’re told the ice shelf won’t last. '.repeat(
        4,
      ),
    };
    const result = await tags(page);
    expect(result.map(tagKey)).toEqual(expect.arrayContaining(['ice shelf']));
    expect(result.filter((t) => /(?:n['’]t|['’](?:re|ve|ll|d|m))\b/i.test(t))).toEqual([]);
  });

  it("never tags a sign-in form's actions: Log In, Sign up, Continue with…", async () => {
    const html = (title: string, description: string, body: string) =>
      extractFacts(
        `<html lang="en"><head><title>${title}</title><meta name="description" content="${description}"></head><body><main><p>${body}</p></main></body></html>`,
        'https://online.firstharbor.example/login',
      );
    const pages = [
      html(
        'Online Banking Log In | First Harbor Bank',
        'Log in to First Harbor online banking to check balances, pay bills and transfer money.',
        'Forgot your username? Enroll in online banking today to manage your accounts anytime. Log in with your username. Sign up for online banking. '.repeat(
          2,
        ),
      ),
      html(
        'Log in to Notion',
        'The all-in-one workspace for you and your team: notes, docs and projects.',
        'Continue with Google. Continue with Apple. Log in with passkey. Sign in with SSO. Sign-up is free for teams.',
      ),
    ];
    for (const page of pages) {
      const result = await tags(page);
      expect(result.length).toBeGreaterThan(0);
      expect(
        result.filter((t) => /^(?:log|sign|continue|up|in)$/i.test(t) || /\b(?:log|sign) ?(?:in|up)\b/i.test(t)),
      ).toEqual([]);
    }
  });

  it('tags a Russian page in Russian and a Spanish page in Spanish', async () => {
    const russian = await tags(facts('pikabu'));
    expect(russian.length).toBeGreaterThan(0);
    expect(russian.every((t) => /^[\p{Script=Cyrillic}\s-]+$/u.test(t))).toBe(true);
    const spanish = await tags(facts('belfusto'));
    expect(spanish).toContain('Ergowear');
    expect(spanish.map(tagKey)).toContain('ropa interior masculina');
  });

  it('puts the user’s tags that the page mentions first, in the user’s spelling', async () => {
    const result = await tags(facts('techcrunch'), ['recipes', 'hackerrank']);
    expect(result[0]).toBe('hackerrank');
    expect(result).not.toContain('HackerRank');
    expect(result).not.toContain('recipes');
    expect(result.length).toBeLessThanOrEqual(5);
  });

  // A library's tags spread over every page that merely writes the word somewhere (issue 17's audit:
  // "president, audience, basement" on Bob Dylan's page, "Facebook" from share lines).
  it.each([
    ['wikipedia', ['president', 'audience', 'basement', 'best']],
    ['usa-today', ['Facebook', 'blank', 'trial']],
    ['the-verge', ['Facebook', 'data', 'tech']],
    ['sfstandard', ['likes', 'problem', 'capital']],
  ])('%s: the user’s tags the page only mentions are not its tags', async (name, written) => {
    const theirs = [...written, 'Media', 'big', 'magazine'];
    const result = await tags(facts(name), theirs, new TagVectorCache());
    expect(result.length).toBeGreaterThan(0);
    for (const tag of written) expect(result.map(tagKey)).not.toContain(tagKey(tag));
    expect(result.filter((t) => FURNITURE.test(t))).toEqual([]);
  });

  it('proposes the user’s "js" instead of "JavaScript" when they mean the same', async () => {
    const page: PageFacts = {
      ...facts('learnnode'),
      title: 'Closures in JavaScript',
      description: 'How JavaScript closures capture variables, with examples for the browser.',
      text: 'JavaScript closures capture the variables of the function that created them. '.repeat(6),
    };
    expect(await tags(page)).toContain('JavaScript');
    const cache = new TagVectorCache();
    const withTheirs = await tags(page, ['cooking', 'js'], cache);
    expect(withTheirs).toContain('js');
    expect(withTheirs).not.toContain('JavaScript');
    expect(withTheirs).not.toContain('cooking');
  });
});

describe('isAbbreviation', () => {
  it('accepts a short tag whose letters start and run through the long one', () => {
    expect(isAbbreviation('js', 'JavaScript')).toBe(true);
    expect(isAbbreviation('ml', 'machine learning')).toBe(true);
    expect(isAbbreviation('k8s', 'kubernetes')).toBe(false);
    expect(isAbbreviation('js', 'python')).toBe(false);
    expect(isAbbreviation('javascript', 'js')).toBe(false);
  });
});
