/** Source of the current time; services take it as a dependency so expiry rules can be tested. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const toIso = (millis: number): string => new Date(millis).toISOString();
export const toIsoOrNull = (millis: number | null | undefined): string | null =>
  millis === null || millis === undefined ? null : toIso(millis);

export const DAY_MS = 86_400_000;
