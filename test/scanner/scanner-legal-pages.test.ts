import { describe, expect, it } from 'vitest';
import { legalPageScore, pickLegalPages, type PageLink } from '../../src/scanner/legal-pages.ts';

const site = 'https://www.beispiel.example';
const link = (text: string, path: string): PageLink => ({ text, href: `${site}${path}` });

describe('legalPageScore', () => {
  it.each([
    'Impressum', 'Imprint', 'Legal notice', 'Legal', 'Site notice', 'Anbieterkennzeichnung', 'Mentions légales',
    'Informations légales', 'IMPRESSUM', 'mentions legales',
  ])('recognises "%s" as the imprint only', (text) => {
    expect(legalPageScore(link(text, '/seite-7'), 'imprint')).toBeGreaterThan(0);
    expect(legalPageScore(link(text, '/seite-7'), 'privacy')).toBe(0);
  });

  it.each([
    'Datenschutz', 'Datenschutzerklärung', 'Datenschutzhinweise', 'Privacy', 'Privacy policy', 'Privacy notice',
    'Data protection', 'Politique de confidentialité', 'Confidentialité', 'Données personnelles', 'DATENSCHUTZERKLÄRUNG',
    'politique de confidentialite',
  ])('recognises "%s" as the privacy policy only', (text) => {
    expect(legalPageScore(link(text, '/seite-7'), 'privacy')).toBeGreaterThan(0);
    expect(legalPageScore(link(text, '/seite-7'), 'imprint')).toBe(0);
  });

  it.each(['/impressum', '/de/imprint/', '/legal-notice', '/mentions-legales', '/impressum.html', '/#/impressum'])(
    'recognises the imprint path %s',
    (path) => {
      expect(legalPageScore(link('', path), 'imprint')).toBeGreaterThan(0);
      expect(legalPageScore(link('', path), 'privacy')).toBe(0);
    },
  );

  it.each([
    '/datenschutz', '/privacy', '/privacy-policy', '/confidentialite', '/politique-de-confidentialite',
    '/datenschutzerkl%C3%A4rung/', '/en/Privacy_Policy.php',
  ])('recognises the privacy path %s', (path) => {
    expect(legalPageScore(link('', path), 'privacy')).toBeGreaterThan(0);
    expect(legalPageScore(link('', path), 'imprint')).toBe(0);
  });

  it('ranks text over URL, an exact label over a sentence, and a confirming URL on top', () => {
    const byText = legalPageScore(link('Datenschutz', '/seite-7'), 'privacy');
    const byUrl = legalPageScore(link('Mehr erfahren', '/datenschutz'), 'privacy');
    const bySentence = legalPageScore(
      link('Wie wir Ihre Daten verarbeiten, lesen Sie in unserer Datenschutzerklärung', '/seite-7'),
      'privacy',
    );
    const byBoth = legalPageScore(link('Datenschutz', '/datenschutz'), 'privacy');
    expect(byBoth).toBeGreaterThan(byText);
    expect(byText).toBeGreaterThan(bySentence);
    expect(bySentence).toBeGreaterThan(byUrl);
    expect(byUrl).toBeGreaterThan(0);
  });

  it('counts a title repeating the text as the same label', () => {
    expect(legalPageScore(link('Impressum Impressum', '/x'), 'imprint')).toBe(legalPageScore(link('Impressum', '/x'), 'imprint'));
  });

  it.each([
    ['mailto:datenschutz@beispiel.example', 'Datenschutz'],
    ['tel:+493012345', 'Impressum'],
    ['javascript:void(0)', 'Impressum'],
    ['#impressum', 'Impressum'],
    [`${site}/impressum#`, 'Impressum'],
    ['not a url', 'Impressum'],
  ])('ignores %s', (href, text) => {
    expect(legalPageScore({ href, text }, 'imprint')).toBe(0);
    expect(legalPageScore({ href, text }, 'privacy')).toBe(0);
  });

  it('never takes consent settings for the privacy policy', () => {
    expect(legalPageScore(link('Cookie-Einstellungen', '/'), 'privacy')).toBe(0);
    expect(legalPageScore(link('Privacy settings', '/privacy-settings'), 'privacy')).toBe(0);
    expect(legalPageScore(link('Datenschutzeinstellungen', '/'), 'privacy')).toBe(0);
    expect(legalPageScore(link('Paramètres de confidentialité', '/'), 'privacy')).toBe(0);
  });

  it('scores a cookie policy below any real privacy link', () => {
    const cookiePolicy = legalPageScore(link('Cookie Policy', '/privacy#cookies'), 'privacy');
    expect(cookiePolicy).toBeGreaterThan(0);
    expect(cookiePolicy).toBeLessThan(legalPageScore(link('Mehr', '/datenschutz'), 'privacy'));
    expect(legalPageScore(link('Datenschutz & Cookies', '/datenschutz'), 'privacy')).toBeGreaterThan(cookiePolicy);
  });
});

describe('pickLegalPages', () => {
  it('picks from a German footer', () => {
    const links = [
      link('Startseite', '/'),
      link('Über uns', '/ueber-uns'),
      { href: 'mailto:info@beispiel.example', text: 'Kontakt' },
      link('AGB', '/agb'),
      link('Cookie-Einstellungen', '/#'),
      link('Datenschutz', '/datenschutz'),
      link('Impressum', '/impressum'),
    ];
    expect(pickLegalPages(links)).toEqual({
      imprintUrl: `${site}/impressum`,
      privacyPolicyUrl: `${site}/datenschutz`,
    });
  });

  it('picks from an English footer with a cookie policy and a legal page', () => {
    const links = [
      link('Cookie policy', '/cookie-policy'),
      link('Cookie settings', '/cookie-settings'),
      link('Terms of use', '/terms'),
      link('Legal', '/legal'),
      link('Privacy Policy', '/privacy-policy'),
      link('Read our privacy policy to learn how we use your data', '/blog/privacy-matters'),
    ];
    expect(pickLegalPages(links)).toEqual({
      imprintUrl: `${site}/legal`,
      privacyPolicyUrl: `${site}/privacy-policy`,
    });
  });

  it('picks from a French footer and prefers the imprint over a broader "legal" page', () => {
    const links = [
      link('Informations juridiques', '/legal'),
      link('Mentions légales', '/mentions-legales'),
      link('Gérer les cookies', '/cookies'),
      link('Politique de confidentialité', '/politique-de-confidentialite'),
    ];
    expect(pickLegalPages(links)).toEqual({
      imprintUrl: `${site}/mentions-legales`,
      privacyPolicyUrl: `${site}/politique-de-confidentialite`,
    });
  });

  it('follows the text when the URL says something else', () => {
    const links = [link('Mehr erfahren', '/impressum'), link('Impressum', '/kontakt-und-anbieter')];
    expect(pickLegalPages(links).imprintUrl).toBe(`${site}/kontakt-und-anbieter`);
  });

  it('uses one combined page for both', () => {
    expect(pickLegalPages([link('Home', '/'), link('Impressum & Datenschutz', '/rechtliches')])).toEqual({
      imprintUrl: `${site}/rechtliches`,
      privacyPolicyUrl: `${site}/rechtliches`,
    });
  });

  it('falls back to a cookie policy when no privacy link exists', () => {
    expect(pickLegalPages([link('Cookie Policy', '/cookies')])).toEqual({
      imprintUrl: null,
      privacyPolicyUrl: `${site}/cookies`,
    });
  });

  it('gives nulls when nothing looks right', () => {
    expect(pickLegalPages([])).toEqual({ imprintUrl: null, privacyPolicyUrl: null });
    expect(
      pickLegalPages([link('Shop', '/shop'), link('Blog', '/blog'), { href: 'javascript:void(0)', text: 'Impressum' }]),
    ).toEqual({ imprintUrl: null, privacyPolicyUrl: null });
  });
});
