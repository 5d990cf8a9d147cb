/**
 * How an on/off setting may be written, for config.ts and for worker threads that read one of its
 * variables themselves (without loading the configuration's schema into the thread).
 */
export const SWITCH_WORDS = ['true', 'false', '1', '0', 'yes', 'no'] as const;
export type SwitchWord = (typeof SWITCH_WORDS)[number];

export const switchOn = (word: SwitchWord): boolean => word === 'true' || word === '1' || word === 'yes';

/** A variable the configuration has already checked, read as on or off (unset: `fallback`). */
export function envSwitch(value: string | undefined, fallback: boolean): boolean {
  const word = value?.trim() ?? '';
  return (SWITCH_WORDS as readonly string[]).includes(word) ? switchOn(word as SwitchWord) : fallback;
}
