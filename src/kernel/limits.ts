/** Request bodies above this are refused with 413 (SERVICE.md §3); Express's body parsers take it as it is. */
export const BODY_LIMIT = '2mb';

/** BODY_LIMIT as people read it: `2 MiB`. */
export const BODY_LIMIT_TEXT = BODY_LIMIT.toUpperCase().replace('MB', ' MiB');
