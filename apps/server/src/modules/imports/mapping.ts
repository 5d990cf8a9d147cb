import {
  cleanTag,
  Limits,
  Messages,
  parseTags,
  tagKey,
  withDefaultScheme,
  type CategoryFrom,
} from '@linkwise/contract';
import { isStorable, storableText } from '../../http/text-hygiene.js';
import type { ImportedLink } from '../links/link-import.service.js';
import { duplicateKey } from '../links/url-normalize.js';
import type { ImportRecord } from './formats/record.js';

/** A link to save (with what was left out of it, for the report), or why none is saved. */
export type Mapped =
  { link: ImportedLink; partial?: string } | { problem: string; kind: 'skipped' | 'failed'; url: string };

/** Cuts to `max` UTF-16 units with an ellipsis, never between the two halves of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** The ids this server mints; any other id from a file would be unreachable by the path routes. */
const LINK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The record with every text made storable. A file is read, not refused, for such characters (the API
 * refuses them in requests): a stray NUL in one title must not cost the other thousands of links.
 */
function storableRecord(record: ImportRecord): ImportRecord {
  const linkwise = record.linkwise && {
    ...record.linkwise,
    id: LINK_ID.test(record.linkwise.id) ? record.linkwise.id : '',
    category: record.linkwise.category === null ? null : storableText(record.linkwise.category),
    aiDescription: record.linkwise.aiDescription === null ? null : storableText(record.linkwise.aiDescription),
    favicon: record.linkwise.favicon === null ? null : storableText(record.linkwise.favicon),
    // Ciphertext with such characters was altered after sealing and could never be opened.
    credentials: record.linkwise.credentials.filter((c) => [c.id, c.iv, c.ciphertext].every(isStorable)),
  };
  return {
    ...record,
    url: storableText(record.url),
    title: storableText(record.title),
    description: storableText(record.description),
    notes: storableText(record.notes),
    tags: record.tags.map(storableText),
    folders: record.folders.map(storableText),
    extras: record.extras.map(([label, value]) => [storableText(label), storableText(value)]),
    ...(linkwise && { linkwise }),
  };
}

/**
 * The analysis's own fields from a Linkwise export, held to what the analysis writes: a summary no
 * longer than a description, an icon's web address. Anything else (a hand-edited file) is the
 * analysis's to write again, so it is cut or dropped rather than carried into every list and export.
 */
function aiDescription(text: string | null): string | null {
  return text === null ? null : clip(text.trim(), Limits.descriptionMax) || null;
}

const faviconUrl = (url: string | null): string | null => (url !== null && urlProblem(url) === null ? url : null);

/** Why a URL cannot be saved, in the user's words; null when it can. */
export function urlProblem(url: string): string | null {
  if (!url) return 'No address';
  if (url.length > Limits.urlMax)
    return `The address is longer than ${Limits.urlMax.toLocaleString('en-US')} characters`;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https') return `Not a web address (${scheme}: links are not imported)`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Not a valid web address';
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname)
    return 'Not a valid web address';
  if (parsed.username || parsed.password) return Messages.urlWithCredentials;
  return null;
}

/**
 * The mapping rules of the README's table: a record from any format → the link that is saved, or
 * why it is not. Whatever has no field of its own goes into notes.
 */
export function mapRecord(source: ImportRecord, categoryFrom: CategoryFrom, now: number): Mapped {
  const record = storableRecord(source);
  // A bare domain from a hand-made list or sheet reads as the add dialog reads it: https.
  const url = withDefaultScheme(record.url.trim());
  if (record.skip) return { problem: record.skip, kind: record.linkwise || !url ? 'failed' : 'skipped', url };
  const problem = urlProblem(url);
  if (problem) return { problem, kind: 'skipped', url };
  let key: string;
  try {
    key = duplicateKey(url);
  } catch {
    return { problem: 'Not a valid web address', kind: 'skipped', url };
  }
  const extras: [string, string][] = [...record.extras];

  const folders = record.folders.map((f) => f.replace(/\s+/g, ' ').trim()).filter(Boolean);
  let category: string | null;
  const tags = [...record.tags];
  if (record.linkwise) category = record.linkwise.category;
  else if (categoryFrom === 'none') {
    category = null;
    tags.push(...folders);
  } else {
    category = (categoryFrom === 'top' ? folders[0] : folders.at(-1)) ?? null;
    if (folders.length > 1) extras.push(['Folder', folders.join(' / ')]);
  }
  if (category && category.length > Limits.categoryMax) {
    extras.push(['Folder', category]);
    category = clip(category, Limits.categoryMax);
  }

  const cleaned = parseTags(tags.map((t) => t.replace(/,/g, ' ')));
  const fitting = cleaned.filter((t) => t.length <= Limits.tagMax).slice(0, Limits.tagsPerLink);
  const kept = new Set(fitting.map(tagKey));
  const leftOver = cleaned.filter((t) => !kept.has(tagKey(t)));
  if (leftOver.length > 0) extras.push(['More tags', leftOver.map(cleanTag).join(', ')]);

  let title = record.title.replace(/\s+/g, ' ').trim();
  if (title.length > Limits.titleMax) {
    extras.push(['Full title', title]);
    title = clip(title, Limits.titleMax);
  }
  let description = record.description.trim();
  if (description.length > Limits.descriptionMax) {
    extras.push(['Full description', description]);
    description = clip(description, Limits.descriptionMax);
  }
  const noteParts = [record.notes.trim(), ...extras.map(([label, value]) => `${label}: ${value}`)].filter(Boolean);
  const allNotes = noteParts.join('\n\n');
  const notes = clip(allNotes, Limits.notesMax);

  // A credential id twice in one link (a hand-edited file) would fail the whole batch; past the
  // per-link cap the link could never be saved from its edit dialog again.
  const credentialIds = new Set<string>();
  const credentials = (record.linkwise?.credentials ?? []).filter(
    (c) => !credentialIds.has(c.id) && credentialIds.add(c.id) && credentialIds.size <= Limits.credentialsPerLink,
  );
  const leftOut = (source.linkwise?.credentials.length ?? 0) - credentials.length;

  // What was cut is told in the report: the notes also carry what no field takes (highlights, a full title…).
  const partials: string[] = [];
  if (record.notice) partials.push(record.notice);
  if (allNotes.length > Limits.notesMax) {
    partials.push(
      `Its notes were cut to ${Limits.notesMax.toLocaleString('en-US')} of their ${allNotes.length.toLocaleString('en-US')} characters (with the values kept in them)`,
    );
  }
  if (leftOut > 0) {
    partials.push(
      `Imported without ${leftOut} of its saved credentials: damaged, repeated, or over ${Limits.credentialsPerLink} a link`,
    );
  }

  const createdAt = Math.min(record.createdAt ?? now, now);
  const updatedAt = Math.max(createdAt, Math.min(record.updatedAt ?? createdAt, now));
  return {
    link: {
      id: record.linkwise?.id || null,
      url,
      key,
      title,
      description,
      aiDescription: aiDescription(record.linkwise?.aiDescription ?? null),
      category,
      tags: fitting,
      notes,
      isRead: record.isRead,
      isReadLater: record.isReadLater,
      favicon: faviconUrl(record.linkwise?.favicon ?? null),
      analysisStatus: record.linkwise?.analysisStatus ?? 'pending',
      createdAt,
      updatedAt,
      credentials,
    },
    ...(partials.length > 0 && { partial: partials.join('; ') }),
  };
}
