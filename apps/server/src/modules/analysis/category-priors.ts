import type { DEFAULT_CATEGORIES } from '@linkwise/contract';
import type { PageFacts } from '../pages/extractor.js';

/** A default category other than `Other` (the answer when nothing fits). */
export type DefaultCategory = Exclude<(typeof DEFAULT_CATEGORIES)[number], 'Other'>;

/** How much a page's own statement about its kind counts, in the category score's units (cosines). */
export type PriorStrength = 'strong' | 'moderate' | 'weak';

/**
 * schema.org types that say what a page is, whatever its words. Strong: the type is the category
 * (a Recipe is a recipe). Weak: most pages of the type belong to the category, many do not
 * (NewsArticle marks business and technology reporting too). Types that say nothing about the topic
 * (Article, WebPage, Organization, BreadcrumbList…) are absent.
 */
export const SCHEMA_TYPE_PRIORS: Readonly<Record<string, [DefaultCategory, PriorStrength]>> = {
  Recipe: ['Recipes', 'strong'],
  ScholarlyArticle: ['Research', 'strong'],
  MedicalScholarlyArticle: ['Research', 'strong'],
  Dataset: ['Research', 'weak'],
  SoftwareSourceCode: ['Development', 'strong'],
  APIReference: ['Development', 'strong'],
  TechArticle: ['Tutorials', 'moderate'],
  HowTo: ['Tutorials', 'strong'],
  Course: ['Education', 'strong'],
  EducationalOrganization: ['Education', 'moderate'],
  Movie: ['Entertainment', 'strong'],
  TVSeries: ['Entertainment', 'strong'],
  TVEpisode: ['Entertainment', 'strong'],
  MusicRecording: ['Entertainment', 'strong'],
  MusicAlbum: ['Entertainment', 'strong'],
  MusicGroup: ['Entertainment', 'strong'],
  VideoGame: ['Entertainment', 'strong'],
  PodcastEpisode: ['Entertainment', 'moderate'],
  PodcastSeries: ['Entertainment', 'moderate'],
  VideoObject: ['Entertainment', 'weak'],
  NewsArticle: ['News', 'weak'],
  ReportageNewsArticle: ['News', 'weak'],
};

/**
 * schema.org types of a thing offered or listed: a product page, a classified ad, a flat to let, a
 * hotel. No default category holds these (decision 0024's labelling policy files them under
 * `Other`; decision 0015's addendum), so such a page is a strong prior for `Other`, unless it also
 * says it is something else (a review of the product is an article about it; a repository on GitHub
 * is Development whatever it declares).
 */
const LISTING_TYPES: ReadonlySet<string> = new Set([
  'Product',
  'IndividualProduct',
  'ProductModel',
  'ProductGroup',
  'Vehicle',
  'Car',
  'Motorcycle',
  'RealEstateListing',
  'Accommodation',
  'Apartment',
  'House',
  'SingleFamilyResidence',
  'HotelRoom',
  'LodgingBusiness',
  'Hotel',
  'Hostel',
  'Motel',
  'BedAndBreakfast',
  'Resort',
  'VacationRental',
]);

/** `og:type` values of a product page (Open Graph's and the shops' own). */
const LISTING_OG_TYPES: ReadonlySet<string> = new Set(['product', 'product.item', 'product.group', 'og:product']);

/**
 * Types that make a page about a listed thing something else: an article or a review about it, or an
 * app's page (apps are Technology, whatever their price).
 */
const NOT_A_LISTING = /(?:Article|BlogPosting|Review|Recipe|HowTo|Application)$/;

/** `og:type` values of the Open Graph protocol that name a kind of page. */
export const OG_TYPE_PRIORS: Readonly<Record<string, [DefaultCategory, PriorStrength]>> = {
  'video.movie': ['Entertainment', 'strong'],
  'video.episode': ['Entertainment', 'strong'],
  'video.tv_show': ['Entertainment', 'strong'],
  'video.other': ['Entertainment', 'weak'],
  'music.song': ['Entertainment', 'strong'],
  'music.album': ['Entertainment', 'strong'],
  'music.playlist': ['Entertainment', 'moderate'],
  'music.radio_station': ['Entertainment', 'moderate'],
};

/**
 * Sites whose every page is one kind of thing, so the address alone says it (a repository on GitHub
 * is development whatever its README is about). General sites (news, Wikipedia, YouTube, Medium)
 * carry any topic and are absent: there the page's words decide.
 */
export const SITE_PRIORS: Readonly<Record<string, DefaultCategory>> = {
  'github.com': 'Development',
  'gitlab.com': 'Development',
  'bitbucket.org': 'Development',
  'codeberg.org': 'Development',
  'stackoverflow.com': 'Development',
  'npmjs.com': 'Development',
  'pypi.org': 'Development',
  'crates.io': 'Development',
  'pkg.go.dev': 'Development',
  'developer.mozilla.org': 'Development',
  'arxiv.org': 'Research',
  'biorxiv.org': 'Research',
  'medrxiv.org': 'Research',
  'pubmed.ncbi.nlm.nih.gov': 'Research',
  'semanticscholar.org': 'Research',
  'researchgate.net': 'Research',
  'doi.org': 'Research',
  'dribbble.com': 'Design',
  'behance.net': 'Design',
  'allrecipes.com': 'Recipes',
  'smittenkitchen.com': 'Recipes',
  'seriouseats.com': 'Recipes',
  'bbcgoodfood.com': 'Recipes',
  'epicurious.com': 'Recipes',
  'food52.com': 'Recipes',
  'imdb.com': 'Entertainment',
  'letterboxd.com': 'Entertainment',
  'twitch.tv': 'Entertainment',
  'open.spotify.com': 'Entertainment',
  'coursera.org': 'Education',
  'edx.org': 'Education',
  'khanacademy.org': 'Education',
};

/** A publisher's section name that is another name of a default category. */
const SECTION_SYNONYMS: Readonly<Record<string, DefaultCategory>> = {
  tech: 'Technology',
  science: 'Research',
  politics: 'News',
  'world news': 'News',
  'us news': 'News',
  celebrities: 'Entertainment',
  movies: 'Entertainment',
  music: 'Entertainment',
  sports: 'Entertainment',
  food: 'Recipes',
  recipes: 'Recipes',
  programming: 'Development',
  'software development': 'Development',
  'how to': 'Tutorials',
  'how-to': 'Tutorials',
};

/**
 * Segments of an address that name no section: a site's news area holds every topic (bbc.com/news/…,
 * yahoo.com/news/… carries celebrity gossip), and the rest are a site's furniture, not a topic.
 */
const NOT_A_PATH_SECTION: ReadonlySet<string> = new Set(['news', 'other', 'article', 'articles', 'story', 'blog']);

/**
 * The section a publisher files a page under in its address (`/business/…`, `/tech/mobile/…`): the
 * first two path segments, before the page's own slug. A segment counts only when it is a category's
 * name or a section synonym as a whole word (`us-news`), never a slug that merely starts with one.
 */
function pathSections(url: string | null): string[] {
  if (!url) return [];
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').filter(Boolean);
  } catch {
    return [];
  }
  // The last segment is the page itself (its slug or id), unless the address ends with a slash.
  if (!url.endsWith('/')) segments = segments.slice(0, -1);
  return segments.slice(0, 2).flatMap((segment) => {
    let text: string;
    try {
      text = decodeURIComponent(segment);
    } catch {
      return [];
    }
    text = text
      .toLocaleLowerCase('en-US')
      .replace(/[-_+]+/g, ' ')
      .trim();
    return text && !NOT_A_PATH_SECTION.has(text) ? [text] : [];
  });
}

/** A section name as a category: one of `categories` by name, else a synonym's. */
function sectionCategory(section: string, categories: readonly string[]): string | undefined {
  return categories.find((c) => c.toLocaleLowerCase('en-US') === section) ?? SECTION_SYNONYMS[section];
}

/** One prior: the category a page's self-description points to, how strongly, and why. */
export interface Prior {
  /** A default category, one of the user's, or `Other` for a page that lists a thing for sale or rent. */
  category: string;
  strength: PriorStrength;
  why: string;
}

/** The site's host without `www.`, and its parent domains (`en.m.example.org` → also `example.org`). */
function hosts(url: string | null): string[] {
  if (!url) return [];
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return [];
  }
  const parts = host.split('.');
  return parts.slice(0, -1).map((_, i) => parts.slice(i).join('.'));
}

/**
 * What a page says about its own kind, as priors: its schema.org types, `og:type`, the publisher's
 * section (when it names one of `categories`) and the site. One prior per category: the strongest.
 */
export function pagePriors(
  facts: Pick<PageFacts, 'url' | 'ogType' | 'schemaTypes' | 'section'>,
  categories: readonly string[],
): Prior[] {
  const found: Prior[] = [];
  for (const type of facts.schemaTypes ?? []) {
    const prior = SCHEMA_TYPE_PRIORS[type];
    if (prior) found.push({ category: prior[0], strength: prior[1], why: `schema.org ${type}` });
  }
  const og = facts.ogType ? OG_TYPE_PRIORS[facts.ogType] : undefined;
  if (og) found.push({ category: og[0], strength: og[1], why: `og:type ${facts.ogType}` });
  const site = hosts(facts.url).find((h) => SITE_PRIORS[h]);
  if (site) found.push({ category: SITE_PRIORS[site]!, strength: 'strong', why: `site ${site}` });
  const section = facts.section?.toLocaleLowerCase('en-US').replace(/&amp;/g, '&').trim();
  const named = section ? sectionCategory(section, categories) : undefined;
  if (named) found.push({ category: named, strength: 'moderate', why: `section ${facts.section}` });
  // The address's section only where the page declares none of its own (the declared one is the publisher's word).
  if (!named) {
    for (const segment of pathSections(facts.url)) {
      const category = sectionCategory(segment, categories);
      if (category) {
        found.push({ category, strength: 'moderate', why: `address section /${segment.replace(/ /g, '-')}/` });
        break;
      }
    }
  }
  const types = facts.schemaTypes ?? [];
  const listing =
    types.find((t) => LISTING_TYPES.has(t)) ??
    (facts.ogType && LISTING_OG_TYPES.has(facts.ogType.toLowerCase()) ? `og:type ${facts.ogType}` : undefined);
  if (listing && found.every((p) => p.strength === 'weak') && !types.some((t) => NOT_A_LISTING.test(t))) {
    found.push({
      category: 'Other',
      strength: 'strong',
      why: types.includes(listing) ? `schema.org ${listing}` : listing,
    });
  }
  const order: PriorStrength[] = ['strong', 'moderate', 'weak'];
  const best = new Map<string, Prior>();
  for (const prior of found) {
    const key = prior.category.toLocaleLowerCase('en-US');
    const had = best.get(key);
    if (!had || order.indexOf(prior.strength) < order.indexOf(had.strength)) best.set(key, prior);
  }
  return [...best.values()];
}
