import type { FastifyRequest } from 'fastify';
import { AppError, notFound } from '../errors.js';

export const TextMessages = {
  nul: 'Text must not contain NUL characters',
  unicode: 'Text must be valid Unicode',
} as const;

/**
 * The first string (or object key) in `value` that no database can hold as text: a NUL byte
 * (PostgreSQL refuses it, SQLite would store it) or a lone UTF-16 surrogate (not Unicode, re-encoded
 * differently by each engine). Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findBadText(value: unknown): { path: string; message: string } | undefined {
  // Each entry links to its parent, so a deep body costs no path copies; a path is built only on failure.
  interface Entry {
    value: unknown;
    key: string | undefined;
    parent: Entry | undefined;
  }
  const pathOf = (entry: Entry | undefined, last?: string): string => {
    const keys = last === undefined ? [] : [last];
    for (let e = entry; e?.key !== undefined; e = e.parent) keys.unshift(e.key);
    return keys.join('.');
  };
  const stack: Entry[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === 'string') {
      const message = badText(current);
      if (message) return { path: pathOf(entry), message };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, key: String(index), parent: entry }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const message = badText(key);
        if (message) return { path: pathOf(entry, key.replace(/\0/g, '\\0')), message };
        stack.push({ value: item, key, parent: entry });
      }
    }
  }
  return undefined;
}

/** In a `u` pattern a surrogate pair is one code point, so only a lone half matches \p{Cs}. */
const LONE_SURROGATE = /\p{Cs}/u;

function badText(text: string): string | undefined {
  if (text.includes('\0')) return TextMessages.nul;
  if (LONE_SURROGATE.test(text)) return TextMessages.unicode;
  return undefined;
}

/** Whether every engine can hold `text` as it is. */
export const isStorable = (text: string): boolean => badText(text) === undefined;

/**
 * `text` made storable where refusing is worse than cleaning (a file of thousands of links): NUL
 * bytes dropped, each lone surrogate replaced by U+FFFD.
 */
export const storableText = (text: string): string =>
  isStorable(text) ? text : text.replace(/\0/g, '').replace(new RegExp(LONE_SURROGATE.source, 'gu'), '\uFFFD');

/**
 * preValidation hook of every API route: a path id that cannot be text cannot name anything (404);
 * such text in the query or body is a client mistake (400 VALIDATION_ERROR on both engines).
 */
export function checkRequestText(request: FastifyRequest): Promise<void> {
  if (findBadText(request.params)) return Promise.reject(notFound());
  for (const [where, value] of [
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const bad = findBadText(value);
    if (bad) {
      const field = bad.path || where;
      return Promise.reject(new AppError('VALIDATION_ERROR', bad.message, { fields: { [field]: bad.message } }));
    }
  }
  return Promise.resolve();
}
