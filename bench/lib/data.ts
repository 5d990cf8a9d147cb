/**
 * Realistic-looking link data: titles, URLs on well-known sites, descriptions, tags. Everything
 * is drawn from the seeded PRNG, so a run with the same seed produces the same rows.
 */
import { DEFAULT_CATEGORIES } from '@linkwise/contract';
import { chance, hex, int, pick, type Rng } from './random.js';

type Category = (typeof DEFAULT_CATEGORIES)[number];

const TECH = [
  'TypeScript',
  'JavaScript',
  'Rust',
  'Go',
  'Python',
  'PostgreSQL',
  'SQLite',
  'React',
  'Vue',
  'Svelte',
  'Node.js',
  'Deno',
  'Kubernetes',
  'Docker',
  'WebAssembly',
  'GraphQL',
  'CSS Grid',
  'Tailwind',
  'Redis',
  'Kafka',
  'Elixir',
  'Swift',
  'Kotlin',
  'Terraform',
  'Linux',
  'Git',
  'Vim',
  'Nginx',
  'OAuth',
  'WebSockets',
];
const NOUNS = [
  'performance',
  'testing',
  'caching',
  'accessibility',
  'typography',
  'color palettes',
  'onboarding',
  'pricing pages',
  'landing pages',
  'error handling',
  'state management',
  'migrations',
  'indexes',
  'observability',
  'logging',
  'deployments',
  'code review',
  'remote work',
  'hiring',
  'product strategy',
  'design systems',
  'dark mode',
  'animations',
  'forms',
  'search',
  'pagination',
  'background jobs',
  'rate limiting',
  'memory leaks',
  'concurrency',
  'sourdough',
  'fermentation',
  'espresso',
  'running',
  'sleep',
  'focus',
  'note taking',
  'budgeting',
  'climate policy',
  'electric cars',
];
const ADJECTIVES = [
  'practical',
  'complete',
  'gentle',
  'opinionated',
  'modern',
  'minimal',
  'definitive',
  'surprising',
  'hidden',
  'underrated',
  'simple',
  'advanced',
  'quick',
  'visual',
  'honest',
  'boring',
  'fast',
  'tiny',
  'illustrated',
  'annotated',
];
const VERBS = [
  'Build',
  'Debug',
  'Scale',
  'Design',
  'Test',
  'Ship',
  'Profile',
  'Refactor',
  'Understand',
  'Secure',
  'Automate',
  'Measure',
  'Migrate',
  'Learn',
  'Teach',
];
const DISHES = [
  'Shakshuka',
  'Pad Thai',
  'Crème brûlée',
  'Sourdough focaccia',
  'Chana masala',
  'Ramen',
  'Lasagne',
  'Banana bread',
  'Tarte tatin',
  'Bibimbap',
  'Pho',
  'Gazpacho',
  'Risotto ai funghi',
  'Käsespätzle',
  'Tteokbokki',
];
const PEOPLE = [
  'alice',
  'bob',
  'carol',
  'dmitri',
  'eve',
  'fatima',
  'gustavo',
  'hana',
  'ivan',
  'jun',
  'kofi',
  'lena',
  'marta',
  'noor',
  'oscar',
  'priya',
  'quentin',
  'rosa',
  'sven',
  'tomoko',
];
const SENTENCE_START = [
  'A walkthrough of',
  'Notes on',
  'Everything you need to know about',
  'A deep dive into',
  'Lessons learned from',
  'An introduction to',
  'Benchmarks comparing',
  'A case study on',
  'Common mistakes in',
  'Patterns for',
];

export const TAG_WORDS = [
  'javascript',
  'typescript',
  'rust',
  'golang',
  'python',
  'sql',
  'postgres',
  'sqlite',
  'react',
  'css',
  'html',
  'frontend',
  'backend',
  'devops',
  'security',
  'performance',
  'testing',
  'ux',
  'ui',
  'design',
  'typography',
  'accessibility',
  'ai',
  'machine learning',
  'llm',
  'data',
  'startup',
  'marketing',
  'seo',
  'growth',
  'pricing',
  'career',
  'productivity',
  'writing',
  'reading list',
  'to-read',
  'inspiration',
  'work',
  'side project',
  'reference',
  'tutorial',
  'video',
  'podcast',
  'paper',
  'book',
  'recipe',
  'vegetarian',
  'baking',
  'travel',
  'finance',
  'health',
  'fitness',
  'music',
  'film',
  'gaming',
  'history',
  'science',
  'climate',
  'politics',
  'Café',
];

interface Site {
  host: string;
  category: Category;
  path: (rng: Rng, slug: string, n: number) => string;
}

const slugOf = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const SITES: Site[] = [
  { host: 'github.com', category: 'Development', path: (r, s, n) => `/${pick(r, PEOPLE)}/${s}-${n}` },
  { host: 'medium.com', category: 'Technology', path: (r, s) => `/@${pick(r, PEOPLE)}/${s}-${hex(r, 12)}` },
  { host: 'dev.to', category: 'Development', path: (r, s, n) => `/${pick(r, PEOPLE)}/${s}-${n.toString(36)}` },
  { host: 'stackoverflow.com', category: 'Development', path: (_r, s, n) => `/questions/${70000000 + n}/${s}` },
  {
    host: 'en.wikipedia.org',
    category: 'Research',
    path: (_r, s, n) => `/wiki/${s.replace(/-/g, '_').replace(/^./, (c) => c.toUpperCase())}_(${n})`,
  },
  {
    host: 'www.nytimes.com',
    category: 'News',
    path: (r, s) =>
      `/${int(r, 2023, 2026)}/${String(int(r, 1, 12)).padStart(2, '0')}/${String(int(r, 1, 28)).padStart(2, '0')}/technology/${s}.html`,
  },
  { host: 'www.youtube.com', category: 'Entertainment', path: (r) => `/watch?v=${hex(r, 11)}` },
  { host: 'news.ycombinator.com', category: 'Technology', path: (_r, _s, n) => `/item?id=${38000000 + n}` },
  { host: 'www.bbc.com', category: 'News', path: (_r, s, n) => `/news/${s.split('-')[0] ?? 'world'}-${60000000 + n}` },
  {
    host: 'developer.mozilla.org',
    category: 'Tutorials',
    path: (_r, s, n) => `/en-US/docs/Web/API/${s.replace(/-/g, '_')}_${n}`,
  },
  { host: 'www.seriouseats.com', category: 'Recipes', path: (_r, s, n) => `/${s}-recipe-${n}` },
  {
    host: 'arxiv.org',
    category: 'Research',
    path: (r, _s, n) => `/abs/${int(r, 2301, 2611)}.${String(n % 100000).padStart(5, '0')}`,
  },
  { host: 'www.figma.com', category: 'Design', path: (_r, s, n) => `/community/file/${1200000000000 + n}/${s}` },
  {
    host: 'www.smashingmagazine.com',
    category: 'Design',
    path: (r, s) => `/${int(r, 2023, 2026)}/${String(int(r, 1, 12)).padStart(2, '0')}/${s}/`,
  },
  {
    host: 'hbr.org',
    category: 'Business',
    path: (r, s) => `/${int(r, 2023, 2026)}/${String(int(r, 1, 12)).padStart(2, '0')}/${s}`,
  },
  { host: 'www.coursera.org', category: 'Education', path: (_r, s, n) => `/learn/${s}-${n}` },
  { host: 'blog.hubspot.com', category: 'Marketing', path: (_r, s, n) => `/marketing/${s}-${n}` },
  { host: 'www.theverge.com', category: 'Technology', path: (r, s, n) => `/${int(r, 2023, 2026)}/${n}/${s}` },
  { host: 'www.khanacademy.org', category: 'Education', path: (_r, s, n) => `/math/${s}/v/${n}` },
  { host: 'example-shop.com', category: 'Other', path: (_r, s, n) => `/products/${s}?sku=${n}&color=blue` },
];

function titleFor(rng: Rng, site: Site): string {
  if (site.category === 'Recipes') return `${pick(rng, DISHES)} (${pick(rng, ADJECTIVES)} version)`;
  switch (int(rng, 0, 6)) {
    case 0:
      return `${pick(rng, VERBS)} ${pick(rng, NOUNS)} in ${pick(rng, TECH)}`;
    case 1:
      return `The ${pick(rng, ADJECTIVES)} guide to ${pick(rng, NOUNS)}`;
    case 2:
      return `${int(rng, 3, 25)} ${pick(rng, ADJECTIVES)} ways to improve your ${pick(rng, NOUNS)}`;
    case 3:
      return `Why ${pick(rng, TECH)} changed how we think about ${pick(rng, NOUNS)}`;
    case 4:
      return `${pick(rng, TECH)} vs ${pick(rng, TECH)}: ${pick(rng, NOUNS)} compared`;
    case 5:
      return `${pick(rng, SENTENCE_START)} ${pick(rng, NOUNS)}`;
    default:
      return `${pick(rng, ADJECTIVES).replace(/^./, (c) => c.toUpperCase())} ${pick(rng, NOUNS)} with ${pick(rng, TECH)} – ${pick(rng, PEOPLE)}'s notes`;
  }
}

function sentence(rng: Rng): string {
  return `${pick(rng, SENTENCE_START)} ${pick(rng, NOUNS)} with ${pick(rng, TECH)}, covering ${pick(rng, NOUNS)} and ${pick(rng, NOUNS)}.`;
}

export interface GeneratedLink {
  url: string;
  title: string;
  description: string;
  aiDescription: string | null;
  category: string | null;
  notes: string;
  favicon: string | null;
  analysisStatus: 'pending' | 'done' | 'failed';
}

/** One link's content; `n` (unique per user) keeps URLs distinct. */
export function generateLink(rng: Rng, n: number): GeneratedLink {
  const site = pick(rng, SITES);
  const title = titleFor(rng, site);
  const scheme = chance(rng, 0.93) ? 'https' : 'http';
  let url = `${scheme}://${site.host}${site.path(rng, slugOf(title) || 'item', n)}`;
  if (chance(rng, 0.08)) url += `${url.includes('?') ? '&' : '?'}utm_source=newsletter&utm_medium=email`;
  if (chance(rng, 0.03)) url += `#section-${int(rng, 1, 9)}`;
  const status = chance(rng, 0.95) ? 'done' : chance(rng, 0.6) ? 'pending' : 'failed';
  const categorised = status === 'done' && chance(rng, 0.96);
  return {
    url,
    // Links still waiting for analysis show their host, as the server does.
    title: status === 'pending' ? site.host.replace(/^www\./, '') : title,
    description: chance(rng, 0.6) ? sentence(rng) : '',
    aiDescription: status === 'done' && chance(rng, 0.7) ? `${sentence(rng)} ${sentence(rng)}` : null,
    category: categorised ? (chance(rng, 0.7) ? site.category : pick(rng, DEFAULT_CATEGORIES)) : null,
    notes: chance(rng, 0.1) ? `Remember: ${pick(rng, NOUNS)} – ${pick(rng, ADJECTIVES)} (${int(rng, 1, 300)})` : '',
    favicon: chance(rng, 0.7) ? `https://${site.host}/favicon.ico` : null,
    analysisStatus: status,
  };
}
