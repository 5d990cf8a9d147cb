/**
 * `search_vector_log`: the links whose vector changed, one row per move of `users.search_version`
 * (`seq` is the version that move produced), so a cached vector matrix is brought up to date by
 * re-reading only those links instead of all of the user's vectors. Written by the triggers that
 * move the version, in the same transaction: a version a reader sees always has its log rows.
 *
 * The log keeps the last LOG_KEEP moves of each user, pruned every PRUNE_EVERY moves; a cache older
 * than that finds rows missing (fewer rows than moves) and loads the whole matrix again.
 */
export const LOG_KEEP = 20000;
export const PRUNE_EVERY = 1024;
