/**
 * Seeds one engine through the server's own openDatabase + migrateToLatest: `smallUsers` users with
 * `linksPerSmallUser` links each plus one user with `bigLinks` links, inserted in creation order with
 * batched multi-row inserts inside transactions.
 */
import { sql } from 'kysely';
import { tagKey } from '@linkwise/contract';
import type { Database } from '../../apps/server/src/db/database.js';
import type { NewLink } from '../../apps/server/src/db/schema.js';
import { sha256 } from '../../apps/server/src/lib/ids.js';
import { duplicateKey } from '../../apps/server/src/modules/links/url-normalize.js';
import { generateLink, TAG_WORDS } from './data.js';
import { bytes, chance, int, mulberry32, sample, uuidv7Generator, type Rng } from './random.js';

/** argon2id of "linkwise-bench" (OWASP parameters, as the server hashes): every seeded user shares it. */
export const PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$go5uOYlcCUxAMtrfCMr7pA$ykP5qb0fEOvRP49wX58YYVDv6SF4Whhgf+hXspML114';

const DAY = 86_400_000;
/** Links are spread over the three years before this instant. */
export const SEED_END = Date.parse('2026-11-22T00:00:00Z');
const SEED_START = SEED_END - 3 * 365 * DAY;

export interface SeedOptions {
  seed: number;
  smallUsers: number;
  linksPerSmallUser: number;
  bigLinks: number;
  log: (message: string) => void;
}

export interface BenchUser {
  id: string;
  label: string;
  token: string;
  links: number;
  pro: boolean;
}

export interface SeedResult {
  big: BenchUser;
  smallPro: BenchUser;
  smallFree: BenchUser;
  /** A second small Pro user, used to warm up link creation without spending the big user's rate limit. */
  warmup: BenchUser;
  counts: { users: number; links: number; tags: number; linkTags: number; credentials: number };
  seconds: number;
}

interface UserPlan {
  id: string;
  index: number;
  label: string;
  createdAt: number;
  links: number;
  pro: boolean;
}

interface TagRow {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  created_at: number;
}

interface LinkTagRow {
  link_id: string;
  tag_id: string;
  position: number;
}

interface CredentialRow {
  id: string;
  link_id: string;
  user_id: string;
  iv: string;
  ciphertext: string;
  v: number;
  position: number;
  created_at: number;
  updated_at: number;
}

/** Rows per multi-row INSERT (links have 16 columns: 8,000 parameters, under both engines' limits). */
const BATCH = 500;
/** Links per transaction. */
const TX_LINKS = 10_000;

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

function vocabulary(rng: Rng, newId: (millis: number) => string, user: UserPlan, big: boolean): TagRow[] {
  const names = big
    ? [...TAG_WORDS, ...TAG_WORDS.flatMap((a) => sample(rng, TAG_WORDS, 4).map((b) => `${a}/${b}`))]
    : sample(rng, TAG_WORDS, int(rng, 12, 30));
  const seen = new Set<string>();
  const rows: TagRow[] = [];
  for (const name of names) {
    const key = tagKey(name);
    if (seen.has(key)) continue;
    seen.add(key);
    const createdAt = user.createdAt + int(rng, 0, DAY);
    rows.push({ id: newId(createdAt), user_id: user.id, name, name_key: key, created_at: createdAt });
  }
  return rows;
}

export async function seed(database: Database, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const rng = mulberry32(options.seed);
  const newId = uuidv7Generator(rng);
  const { db } = database;

  const plans: UserPlan[] = [];
  for (let i = 0; i < options.smallUsers; i++) {
    const createdAt = SEED_START - int(rng, 1, 60) * DAY;
    // Every other small user is Pro; the rest are Free with more links than the Free limit
    // (downgraded accounts), which exercises the server's cutoff path.
    plans.push({
      id: newId(createdAt),
      index: i,
      label: `user${String(i).padStart(4, '0')}`,
      createdAt,
      links: options.linksPerSmallUser,
      pro: i % 2 === 0,
    });
  }
  const bigCreated = SEED_START - 90 * DAY;
  const bigPlan: UserPlan = {
    id: newId(bigCreated),
    index: options.smallUsers,
    label: 'hoarder',
    createdAt: bigCreated,
    links: options.bigLinks,
    pro: true,
  };
  plans.push(bigPlan);

  // Generate everything first (deterministic), then insert in global creation order.
  const tags: TagRow[] = [];
  const links: NewLink[] = [];
  const linkTags = new Map<string, LinkTagRow[]>();
  const credentials = new Map<string, CredentialRow>();
  for (const user of plans) {
    const vocab = vocabulary(rng, newId, user, user === bigPlan);
    tags.push(...vocab);
    const keys = new Set<string>();
    for (let j = 0; j < user.links; j++) {
      let generated = generateLink(rng, j);
      let key = duplicateKey(generated.url);
      for (let attempt = 1; keys.has(key); attempt++) {
        generated = generateLink(rng, j + attempt * user.links);
        key = duplicateKey(generated.url);
      }
      keys.add(key);
      const createdAt = SEED_START + Math.floor(rng() * (SEED_END - SEED_START));
      const updatedAt = chance(rng, 0.35) ? createdAt + Math.floor(rng() * (SEED_END - createdAt)) : createdAt;
      const isRead = chance(rng, 0.45);
      const id = newId(createdAt);
      const withCredentials = chance(rng, 0.02);
      links.push({
        id,
        user_id: user.id,
        url: generated.url,
        normalized_url: key,
        title: generated.title,
        description: generated.description,
        ai_description: generated.aiDescription,
        category: generated.category,
        notes: generated.notes,
        is_read: isRead ? 1 : 0,
        is_read_later: chance(rng, isRead ? 0.08 : 0.3) ? 1 : 0,
        has_credentials: withCredentials ? 1 : 0,
        favicon: generated.favicon,
        analysis_status: generated.analysisStatus,
        created_at: createdAt,
        updated_at: updatedAt,
      });
      if (chance(rng, 0.4) && vocab.length > 0) {
        const chosen = sample(rng, vocab, int(rng, 2, 4));
        linkTags.set(
          id,
          chosen.map((t, position) => ({ link_id: id, tag_id: t.id, position })),
        );
      }
      if (withCredentials) {
        credentials.set(id, {
          id: `cred-${bytes(rng, 6).toString('hex')}`,
          link_id: id,
          user_id: user.id,
          iv: bytes(rng, 12).toString('base64'),
          ciphertext: bytes(rng, int(rng, 48, 160)).toString('base64'),
          v: 1,
          position: 0,
          created_at: createdAt,
          updated_at: createdAt,
        });
      }
    }
  }
  links.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  options.log(`generated ${links.length} links in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // One signed-in device per user (the benchmark uses four of them). Tokens must look recently used
  // or the server's 90-day idle expiry would reject them.
  const now = Date.now();
  const tokens = new Map<string, string>();
  for (const user of plans) tokens.set(user.id, bytes(rng, 32).toString('base64url'));

  await db.transaction().execute(async (trx) => {
    for (const batch of chunks(plans, BATCH)) {
      await trx
        .insertInto('users')
        .values(
          batch.map((u) => ({
            id: u.id,
            email: `${u.label}@bench.linkwise.example`,
            username: u.label === 'hoarder' ? 'Hoarder' : u.label,
            username_key: u.label,
            password_hash: PASSWORD_HASH,
            created_at: u.createdAt,
            updated_at: u.createdAt,
          })),
        )
        .execute();
    }
    for (const batch of chunks(
      plans.filter((u) => u.pro),
      BATCH,
    )) {
      await trx
        .insertInto('subscriptions')
        .values(
          batch.map((u) => ({
            user_id: u.id,
            provider: 'simulated' as const,
            status: 'active' as const,
            plan: 'yearly' as const,
            // Simulated subscriptions renew themselves; the date only has to be plausible.
            current_period_end: SEED_END + 200 * DAY,
            cancel_at_period_end: 0 as const,
            provider_customer_id: `cus_${u.label}`,
            provider_subscription_id: `sub_${u.label}`,
            created_at: SEED_END - 165 * DAY,
            updated_at: SEED_END - 165 * DAY,
          })),
        )
        .execute();
    }
    for (const batch of chunks([...tokens], BATCH)) {
      await trx
        .insertInto('auth_tokens')
        .values(
          batch.map(([userId, token]) => ({
            id: newId(now),
            user_id: userId,
            token_hash: sha256(token),
            kind: 'web' as const,
            name: 'Web browser',
            user_agent: 'Mozilla/5.0 (X11; Linux x86_64) linkwise-bench',
            created_at: now,
            last_used_at: now,
          })),
        )
        .execute();
    }
    for (const batch of chunks(tags, BATCH)) await trx.insertInto('tags').values(batch).execute();
  });

  let linkTagCount = 0;
  let inserted = 0;
  for (const txLinks of chunks(links, TX_LINKS)) {
    await db.transaction().execute(async (trx) => {
      for (const batch of chunks(txLinks, BATCH)) {
        await trx.insertInto('links').values(batch).execute();
        const lt = batch.flatMap((l) => linkTags.get(l.id) ?? []);
        for (const ltBatch of chunks(lt, BATCH * 2)) await trx.insertInto('link_tags').values(ltBatch).execute();
        linkTagCount += lt.length;
        const cr = batch.flatMap((l) => {
          const c = credentials.get(l.id);
          return c ? [c] : [];
        });
        if (cr.length > 0) await trx.insertInto('credentials').values(cr).execute();
      }
    });
    inserted += txLinks.length;
    if (inserted % 50_000 < TX_LINKS || inserted === links.length) {
      options.log(
        `inserted ${inserted}/${links.length} links (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
  }

  if (database.engine === 'postgres') {
    // ANALYZE for planner statistics; VACUUM sets the visibility map, the state autovacuum reaches by
    // itself shortly after bulk inserts (without it, index-only scans read the heap for every row).
    await sql`vacuum (analyze)`.execute(db);
  }

  const userOf = (plan: UserPlan): BenchUser => ({
    id: plan.id,
    label: plan.label,
    token: tokens.get(plan.id) ?? '',
    links: plan.links,
    pro: plan.pro,
  });
  const [p0, p1, p2] = plans;
  if (!p0 || !p1 || !p2) throw new Error('need at least 3 small users');
  return {
    big: userOf(bigPlan),
    smallPro: userOf(p0),
    smallFree: userOf(p1),
    warmup: userOf(p2),
    counts: {
      users: plans.length,
      links: links.length,
      tags: tags.length,
      linkTags: linkTagCount,
      credentials: credentials.size,
    },
    seconds: (performance.now() - started) / 1000,
  };
}
