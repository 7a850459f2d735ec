import { describe, expect, it } from 'vitest';
import { builtinPresets } from '../../../src/features/catalog/builtin.ts';
import type { Preset } from '../../../src/features/catalog/preset.ts';

/**
 * The purposes of the built-in presets, held to the rule of src/features/catalog/services/README.md
 * ("Technically necessary"): a service is exempt from consent only when it is strictly needed for
 * what the visitor asked for and its provider uses the data for nothing of its own. A site set up
 * from the catalog loads the necessary presets unasked, so this list is the catalog's promise.
 */

const NECESSARY = '41ba25c';

/** The presets that pass the rule, by id, each with why (the README's table says the same). */
const NECESSARY_PRESETS: Record<number, string> = {
  292: 'Cloudflare Turnstile', // bot check of a form or login the visitor sends; signals used only for that
  293: 'Cloudflare bot management', // the site's own reverse proxy: bot defence and rate limiting of the site
  300: 'Stripe', // fraud prevention for the payment the visitor makes
  310: 'Cookiebot', // keeps the consent choice
  311: 'OneTrust', // keeps the consent choice
  312: 'Usercentrics', // keeps the consent choice
  313: 'Borlabs Cookie', // keeps the consent choice
  314: 'CCM19', // keeps the consent choice
  360: 'WordPress', // login, protected posts, comment details the commenter asked to keep
  361: 'WooCommerce', // basket and shop session
  362: 'PHP session', // the server session
  363: 'Shopify', // basket, customer login, chosen country and currency, consent choice
};

/** Categories whose services exist to measure, advertise, profile or load those that do: never necessary. */
const NEVER_NECESSARY = ['tag-manager', 'analytics', 'advertising', 'personalisation', 'social-media'];

/** Words by which a text claims that a service needs no consent. */
const CLAIMS_NECESSITY = /technisch notwendig|unbedingt erforderlich|technically necessary|strictly necessary|no consent|keine Einwilligung/i;

const descriptions = (preset: Preset) => [preset.translations.de_DE.description, preset.translations.en_US.description];

describe('the purposes of the built-in presets', () => {
  it('keep exactly the documented presets technically necessary', () => {
    const necessary = builtinPresets.filter((preset) => preset.purpose === NECESSARY);
    expect(Object.fromEntries(necessary.map((preset) => [preset.id, preset.name]))).toEqual(NECESSARY_PRESETS);
  });

  it('give no tag manager, analytics, advertising, personalisation or social-media service the necessary purpose', () => {
    const wrong = builtinPresets.filter((preset) => NEVER_NECESSARY.includes(preset.category) && preset.purpose === NECESSARY);
    expect(wrong.map((preset) => preset.name)).toEqual([]);
    expect(builtinPresets.filter((preset) => preset.category === 'tag-manager').length).toBeGreaterThan(0);
  });

  it('let no description claim that a service needs no consent, whatever its purpose', () => {
    const claiming = builtinPresets.filter((preset) => descriptions(preset).some((text) => CLAIMS_NECESSITY.test(text)));
    expect(claiming.map((preset) => preset.name)).toEqual([]);
  });

  it('have Google Tag Manager ask for consent, and say what it does and that it waits for consent', () => {
    const tagManager = builtinPresets.find((preset) => preset.name === 'Google Tag Manager')!;
    expect(tagManager.purpose).toBe('a717ff5');
    expect(tagManager.translations.en_US.description).toMatch(/loads the tags.*fires them.*IP address.*Google.*only after consent/s);
    expect(tagManager.translations.de_DE.description).toMatch(/lädt die Tags.*löst sie aus.*IP-Adresse.*Google.*erst nach Einwilligung/s);
  });

  it('say, in both languages, that a security, payment or tag-manager service needing consent waits for it', () => {
    // Where visitors and operators would expect a service to run unasked, its texts explain why it does not.
    const waiting = builtinPresets.filter(
      (preset) => ['security', 'payment', 'tag-manager'].includes(preset.category) && preset.purpose !== NECESSARY,
    );
    expect(waiting.map((preset) => preset.name).sort()).toEqual(['Google Tag Manager', 'Google reCAPTCHA', 'Klarna', 'PayPal', 'hCaptcha']);
    for (const preset of waiting) {
      expect(preset.translations.en_US.description, preset.name).toMatch(/only after consent/);
      expect(preset.translations.de_DE.description, preset.name).toMatch(/erst nach Einwilligung/);
      expect(preset.translations.en_US.description, preset.name).toMatch(/IP address/);
      expect(preset.translations.de_DE.description, preset.name).toMatch(/IP-Adresse/);
    }
  });
});

describe('the Google Consent Mode types of the built-in presets', () => {
  /** Google's services by id, with the types their tags read; the tag manager and embeds read none. */
  const GOOGLE_TYPES: Record<number, string[]> = {
    1: ['analytics_storage'], // Google Analytics 4
    2: ['analytics_storage'], // Universal Analytics
    3: [], // Google Tag Manager: the container, whose tags read their own
    70: ['ad_storage'], // Google Ads conversion tracking and remarketing
    71: ['ad_storage'], // AdSense
    72: ['ad_storage'], // Marketing Platform: Campaign Manager 360, Floodlight (DoubleClick)
    200: [], // YouTube
    220: [], // Google Maps
    270: [], // Google Fonts
    290: [], // reCAPTCHA
  };

  it("are listed for Google's measurement and advertising services, and for no one else", () => {
    const google = builtinPresets.filter((preset) => preset.vendor.startsWith('Google'));
    expect(Object.fromEntries(google.map((preset) => [preset.id, preset.googleConsentMode ?? []]))).toEqual(GOOGLE_TYPES);
    const others = builtinPresets.filter((preset) => !preset.vendor.startsWith('Google') && (preset.googleConsentMode?.length ?? 0) > 0);
    expect(others.map((preset) => preset.name)).toEqual([]);
  });
});
