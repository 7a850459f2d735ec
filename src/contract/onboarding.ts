import { z } from 'zod';
import type { PostalAddress } from '../onboarding/scanner/address.ts';
import type { FoundCookie, FoundStorageKey, VisitedPage } from '../onboarding/scanner/scan.ts';
import { list, text } from './fields.ts';

/** Onboarding payloads (SERVICE.md §2 "Onboarding payloads"). */

export const onboardingPresetList = list(
  z.strictObject({
    /** A preset id from the catalog. */
    id: z.int().min(1),
    /** Activate the created embedding at once. */
    active: z.boolean().optional(),
  }),
).superRefine((items, ctx) => {
  const seen = new Set<number>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats the preset id ${item.id}` });
    seen.add(item.id);
  });
});

export const ONBOARDING_STORAGE_TYPES = ['cookie', 'localStorage', 'sessionStorage'] as const;

export const onboardingCookieList = list(
  z.strictObject({
    name: text().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    storageType: z.enum(ONBOARDING_STORAGE_TYPES),
  }),
);

export type OnboardingPreset = z.infer<typeof onboardingPresetList>[number];
export type OnboardingCookie = z.infer<typeof onboardingCookieList>[number];

export type OnboardingPresetResult = { presetId: number; embeddingId: string };

export type AvailablePreset = {
  id: number;
  name: string;
  purpose: string;
  vendor: string;
  translations: Record<string, { name: string; description: string }>;
  /** What on the site gave the service away (extra, read-only). */
  evidence: { kind: 'cookie' | 'localStorage' | 'sessionStorage' | 'script' | 'iframe'; value: string }[];
};

export type OnboardingScanResult = {
  address: PostalAddress;
  imprintUrl: string | null;
  privacyPolicyUrl: string | null;
  availablePresets: AvailablePreset[];
  storage: {
    cookies: FoundCookie[];
    localStorage: FoundStorageKey[];
    sessionStorage: FoundStorageKey[];
  };
  /** Extra, read-only: what the crawl did. */
  url: string;
  pages: VisitedPage[];
  durationMs: number;
};

/** `default` plus one snippet per active locale of the domain. */
export type OnboardingEmbedCodeSnippets = { default: string } & Record<string, string>;
