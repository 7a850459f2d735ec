/** How long the banner waits for the region's answer before it asks the visitor anyway. */
const REGION_WAIT_MS = 3_000;

/**
 * `enableOnlyInEu`: asks the service whether this visitor is in the region where the banner
 * asks (region/visitor-region.ts on the server). True unless the service says "outside": no
 * answer in time, an error or anything unexpected asks the visitor.
 */
export function askRegion(regionUrl: string): Promise<boolean> {
  const answer = fetch(regionUrl, { credentials: 'omit', cache: 'no-store' })
    .then((response) => (response.ok ? response.json() : null))
    .then((body: { eu?: unknown } | null) => body?.eu !== false, () => true);
  return Promise.race([answer, new Promise<boolean>((resolve) => setTimeout(resolve, REGION_WAIT_MS, true))]);
}
