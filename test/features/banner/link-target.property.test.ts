import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkTarget } from '../../../src/features/banner/texts.ts';
import { unicodeText } from '../../support/arbitraries.ts';

/**
 * The `…Url` texts become links in the banner (texts.ts `linkTarget`): an http(s) address, or a
 * path on the site. A "path" a browser reads as another site's address (`//host`, `/\host`,
 * `/<tab>/host`) is no path.
 */

const noPlaceholders = (value: string) => value;
const SITE = 'https://shop.example';

describe('linkTarget', () => {
  it.each(['/datenschutz', '/impressum?lang=de#top', '/a/b/../c', '/%5Cnot-a-backslash', '/'])('keeps the site path %s', (path) => {
    expect(linkTarget(noPlaceholders, path)).toBe(path);
  });

  it.each([
    '//evil.example', '/\\evil.example', '/\\/evil.example', '\\\\evil.example', '/\t/evil.example', '/\n/evil.example',
    '/\r\n/evil.example', ' //evil.example', '/\\\tevil.example', '/a\\b',
  ])('refuses %j, which a browser would not keep on the site', (path) => {
    expect(linkTarget(noPlaceholders, path)).toBeNull();
  });

  /** Starts of a "path" that have led browsers off the site, then a host. */
  const slashLike = fc.constantFrom('/', '\\', '\t', '\n', '\r', ' ', '%5C', '%2F', '\u0000', '\u000b', '\u000c');
  const offSite = fc
    .tuple(fc.array(slashLike, { minLength: 1, maxLength: 5 }), fc.constantFrom('evil.example', 'evil.example/x', '@evil.example', ''))
    .map(([start, host]) => `/${start.join('')}${host}`);

  it('never answers a path a browser would take to another origin', () => {
    fc.assert(
      fc.property(fc.oneof(offSite, unicodeText.map((text) => `/${text}`)), (value) => {
        const target = linkTarget(noPlaceholders, value);
        if (target === null || URL.canParse(target)) return;
        // A relative target: where a browser on the site goes with it.
        expect(new URL(target, SITE).origin).toBe(SITE);
      }),
      { numRuns: 2_000 },
    );
  });
});
