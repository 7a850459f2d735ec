const JAVASCRIPT_TYPE = /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|module)$/i;

/** Whether a script of this `type` attribute runs (no type, a JavaScript type, or a module). */
export function runnable(type: string | null): boolean {
  const trimmed = (type ?? '').trim();
  return trimmed === '' || JAVASCRIPT_TYPE.test(trimmed);
}
