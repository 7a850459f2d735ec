import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadBannerBundles } from '../../../src/features/banner/runtime-bundle.ts';

/** The runtime every visitor of every domain downloads: what the banner's features may cost together. */
const RUNTIME_BUDGET_BYTES = 35 * 1024;

describe('the banner runtime bundle', () => {
  it('stays within 35 KiB gzipped', { timeout: 60_000 }, async () => {
    const { runtime } = await loadBannerBundles();
    const size = gzipSync(runtime).length;
    expect(size, `${(size / 1024).toFixed(1)} KiB gzipped`).toBeLessThanOrEqual(RUNTIME_BUDGET_BYTES);
  });
});
