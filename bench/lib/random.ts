/** Deterministic randomness for the benchmark data: same seed, same rows, on every machine. */
export type Rng = () => number;

/** mulberry32: a tiny 32-bit PRNG, good enough to make test data look varied. Returns [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max]. */
export const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));

export const chance = (rng: Rng, p: number): boolean => rng() < p;

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** `count` distinct items (or all of them when the list is shorter). */
export function sample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const copy = [...items];
  const out: T[] = [];
  while (out.length < count && copy.length > 0) {
    const [item] = copy.splice(Math.floor(rng() * copy.length), 1);
    if (item !== undefined) out.push(item);
  }
  return out;
}

export function bytes(rng: Rng, n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rng() * 256);
  return out;
}

export const hex = (rng: Rng, chars: number): string =>
  bytes(rng, Math.ceil(chars / 2))
    .toString('hex')
    .slice(0, chars);

/**
 * UUIDv7s for rows created at given instants, like the server's newId(), but reproducible: the
 * random part comes from `rng` and a per-generator sequence number guarantees uniqueness.
 */
export function uuidv7Generator(rng: Rng): (millis: number) => string {
  let sequence = 0;
  return (millis) => {
    sequence += 1;
    return uuidv7(rng, millis, sequence);
  };
}

function uuidv7(rng: Rng, millis: number, sequence: number): string {
  const time = Math.floor(millis).toString(16).padStart(12, '0');
  const randA = hex(rng, 3);
  const variant = (8 + int(rng, 0, 3)).toString(16);
  const randB = hex(rng, 3) + hex(rng, 4) + sequence.toString(16).padStart(8, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randA}-${variant}${randB.slice(0, 3)}-${randB.slice(3, 15)}`;
}
