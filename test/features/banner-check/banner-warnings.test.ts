import { describe, expect, it } from 'vitest';
import type { BannerWarning } from '../../../src/features/banner-check/banner-warning.contract.ts';
import type { THEME_COLORS } from '../../../src/features/themes/theme.contract.ts';
import { API, createApiKey, createClient, createDomain, domainState, type DomainPath, unknownId } from '../../support/fixtures.ts';
import type { TestClient } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * GET …/domain/{domainId}/bannerWarnings and Domain.bannerWarnings: what the domain's banner, as
 * the banner builds it (the default theme, its settings, active locales and placeholders), shows
 * that is hard to read, nudges towards accepting, or leaves a placeholder unfilled.
 */

const { service, domain } = useServiceWithDomain();

const QUERY = `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) {
  bannerWarnings { kind rule path related message ratio foreground background placeholder locales } } }`;

async function restWarnings(path: DomainPath = domain, as: TestClient = service): Promise<BannerWarning[]> {
  const answer = await as.rest<BannerWarning[]>('GET', `${path.base}/bannerWarnings`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** The warnings over REST, after checking that GraphQL answers exactly the same. */
async function warnings(path: DomainPath = domain): Promise<BannerWarning[]> {
  const rest = await restWarnings(path);
  const graphql = await service.graphql(QUERY, { clientId: path.clientId, id: path.domainId });
  expect(graphql.errors).toBeUndefined();
  expect(graphql.data.domain.bannerWarnings).toEqual(rest);
  return rest;
}

const summary = (list: BannerWarning[]) => list.map(({ kind, rule, path }) => `${kind} ${rule} ${path}`);

/** The placeholders the default texts refer to, filled. */
async function fillDefaultPlaceholders() {
  const answer = await service.rest('PUT', `${domain.base}/placeholder`, [
    { name: 'FIRMA', value: 'Beispiel GmbH' },
    { name: 'Firma_Ort', value: 'Bonn' },
    { name: 'Firma_Impressum', value: 'https://www.example.org/impressum' },
    { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
  ]);
  expect(answer.status, answer.text).toBe(201);
}

/**
 * A theme that passes every check: dark text on white, a blue link of 8.5:1, accept and decline
 * alike (white on near-black), light grey settings buttons, white on dark for blocked content.
 */
const GOOD_COLOURS = {
  windowBackgroundColor: '#ffffff',
  windowForegroundColor: '#222222',
  windowLinkColor: '#0645ad',
  windowBorderColor: '#dddddd',
  primaryButtonBackgroundColor: '#0a0a0a',
  primaryButtonForegroundColor: '#ffffff',
  primaryButtonBorderColor: '#0a0a0a',
  declineButtonBackgroundColor: '#0a0a0a',
  declineButtonForegroundColor: '#ffffff',
  declineButtonBorderColor: '#0a0a0a',
  buttonBackgroundColor: '#eeeeee',
  buttonForegroundColor: '#222222',
  buttonBorderColor: '#eeeeee',
  iframeBlockerBackgroundColor: '#0b1016',
  iframeBlockerForegroundColor: '#ffffff',
  iframeBlockerButtonBackgroundColor: '#ffffff',
  iframeBlockerButtonForegroundColor: '#0b1016',
} satisfies Record<(typeof THEME_COLORS)[number], string>;

async function createTheme(overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await service.rest('POST', `${domain.base}/theme`, { name: 'House style', ...GOOD_COLOURS, ...overrides });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}

async function updateTheme(themeId: string, changes: Record<string, unknown>) {
  const answer = await service.rest('PUT', `${domain.base}/theme/${themeId}`, changes);
  expect(answer.status, answer.text).toBe(200);
}

async function updateDomain(changes: Record<string, unknown>) {
  const answer = await service.rest('PUT', domain.base, changes);
  expect(answer.status, answer.text).toBe(200);
}

describe('a new domain (no theme, default texts, no placeholders)', () => {
  it('warns only about the placeholders the default texts refer to, one warning per name, with the locales and fields', async () => {
    const list = await warnings();
    expect(summary(list)).toEqual([
      'placeholder placeholderMissing /placeholder/FIRMA',
      'placeholder placeholderMissing /placeholder/Firma_Datenschutz',
      'placeholder placeholderMissing /placeholder/Firma_Impressum',
      'placeholder placeholderMissing /placeholder/Firma_Ort',
    ]);
    for (const warning of list) {
      expect(warning).toMatchObject({ placeholder: warning.path.slice('/placeholder/'.length), locales: ['de_DE', 'en_US'], ratio: null, foreground: null, background: null });
    }
    const imprint = list.find((warning) => warning.placeholder === 'Firma_Impressum')!;
    expect(imprint.related).toEqual(expect.arrayContaining(['/locale/de_DE/imprintUrl', '/locale/en_US/imprintUrl', '/locale/de_DE/imprintHtmlCode']));
    expect(imprint.message).toContain('No placeholder Firma_Impressum is defined, so {Firma_Impressum} stays as written');
    // The imprint link's address is the placeholder alone: unfilled, it is no address and the link is left out.
    expect(imprint.message).toMatch(/de_DE \(imprintUrl, accessibilityUrl\), en_US \(imprintUrl, accessibilityUrl\) that leaves no address, and the banner leaves the link out/);
    // The same names the onboarding's Domain.missingPlaceholders reports.
    const missing = await service.graphql('query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { missingPlaceholders } }', { c: domain.clientId, d: domain.domainId });
    expect(missing.data.domain.missingPlaceholders).toEqual(list.map((warning) => warning.placeholder));
  });

  it('has nothing to warn about once the placeholders are filled', async () => {
    await fillDefaultPlaceholders();
    expect(await warnings()).toEqual([]);
  });

  it('names a placeholder defined but empty, and a new reference in one locale only', async () => {
    await fillDefaultPlaceholders();
    await service.rest('PUT', `${domain.base}/placeholder/FIRMA`, { value: '  ' });
    const updated = await service.rest('PUT', `${domain.base}/locale/en_US`, { widgetIntroText: 'Call us: {Firma_Telefon}. We use cookies.' });
    expect(updated.status, updated.text).toBe(200);
    const list = await warnings();
    expect(summary(list)).toEqual(['placeholder placeholderMissing /placeholder/FIRMA', 'placeholder placeholderMissing /placeholder/Firma_Telefon']);
    expect(list[0]!.message).toContain('The placeholder FIRMA is empty');
    expect(list[1]).toMatchObject({ placeholder: 'Firma_Telefon', locales: ['en_US'], related: ['/locale/en_US/widgetIntroText'] });
    expect(list[1]!.message).toBe(
      'No placeholder Firma_Telefon is defined, so {Firma_Telefon} stays as written in the texts that refer to it: en_US (widgetIntroText).',
    );
    // An inactive locale's texts are not shown: deactivating en_US takes the warning away.
    await updateDomain({ locales: ['de_DE'] });
    expect(summary(await warnings())).toEqual(['placeholder placeholderMissing /placeholder/FIRMA']);
  });
});

describe('contrast (WCAG 2.1 AA, 4.5:1 for text)', () => {
  it('warns about light grey text on white with its ratio and both colours, and not once it is dark enough', async () => {
    await fillDefaultPlaceholders();
    const themeId = await createTheme();
    expect(await warnings()).toEqual([]);

    await updateTheme(themeId, { windowForegroundColor: '#777777' });
    expect(await warnings()).toEqual([
      {
        kind: 'contrast',
        rule: 'textContrast',
        path: `/theme/${themeId}/windowForegroundColor`,
        related: [`/theme/${themeId}/windowBackgroundColor`],
        message: 'The banner’s text (#777777 on #ffffff) has a contrast of 4.48:1, below the 4.5:1 that WCAG 2.1 AA asks of text (success criterion 1.4.3).',
        ratio: 4.48,
        foreground: '#777777',
        background: '#ffffff',
        placeholder: null,
        locales: [],
      },
    ]);

    // #767676 on white is 4.54:1.
    await updateTheme(themeId, { windowForegroundColor: '#767676' });
    expect(await warnings()).toEqual([]);
  });

  it('checks every text pair: links, each kind of button, blocked content', async () => {
    await fillDefaultPlaceholders();
    const themeId = await createTheme({
      windowLinkColor: '#ff0000', // 4.00:1 on white
      buttonForegroundColor: '#ffffff', // on #eeeeee: 1.16:1
      iframeBlockerForegroundColor: '#333333', // on #0b1016: 1.51:1
      iframeBlockerButtonForegroundColor: '#cccccc', // on #ffffff: 1.61:1
    });
    const list = await warnings();
    expect(list.map(({ path, ratio }) => [path.replace(themeId, 'T'), ratio])).toEqual([
      ['/theme/T/buttonForegroundColor', 1.16],
      ['/theme/T/iframeBlockerButtonForegroundColor', 1.61],
      ['/theme/T/iframeBlockerForegroundColor', 1.51],
      ['/theme/T/windowLinkColor', 4],
    ]);
    expect(list.every((warning) => warning.kind === 'contrast')).toBe(true);
  });

  it('reads the theme the banner wears: the default one, else the first', async () => {
    await fillDefaultPlaceholders();
    const first = await createTheme({ windowForegroundColor: '#999999' });
    const chosen = await createTheme({ default: true });
    expect(await warnings(), 'the default theme passes').toEqual([]);
    await updateTheme(chosen, { default: false });
    expect(summary(await warnings()), 'no default: the first').toEqual([`contrast textContrast /theme/${first}/windowForegroundColor`]);
    await updateTheme(first, { default: true });
    await updateTheme(chosen, { windowLinkColor: '#ffffff' });
    expect(summary(await warnings()), 'the other theme is not read').toEqual([`contrast textContrast /theme/${first}/windowForegroundColor`]);
  });
});

describe('nudging', () => {
  it('warns when the decline button is grey on grey while accept is bold, and not once they look alike', async () => {
    await fillDefaultPlaceholders();
    const themeId = await createTheme({
      declineButtonBackgroundColor: '#dddddd',
      declineButtonForegroundColor: '#bbbbbb',
      declineButtonBorderColor: '#DDDDDD',
    });
    const list = await warnings();
    expect(summary(list)).toEqual([
      `contrast textContrast /theme/${themeId}/declineButtonForegroundColor`,
      `nudging declineStyle /theme/${themeId}/declineButtonBackgroundColor`,
      `nudging declineStyle /theme/${themeId}/declineButtonBorderColor`,
      `nudging declineStyle /theme/${themeId}/declineButtonForegroundColor`,
    ]);
    expect(list[0]).toMatchObject({ ratio: 1.41, foreground: '#bbbbbb', background: '#dddddd' });
    expect(list[1]).toMatchObject({ related: [`/theme/${themeId}/primaryButtonBackgroundColor`], locales: [], ratio: null });
    expect(list[1]!.message).toMatch(/^The decline button’s background \(#dddddd\) differs from the accept button’s \(#0a0a0a\)/);
    expect(list[2]!.message).toContain('border (#DDDDDD)');

    // The same colours, one written in capitals: alike.
    await updateTheme(themeId, { declineButtonBackgroundColor: '#0A0A0A', declineButtonForegroundColor: '#ffffff', declineButtonBorderColor: '#0a0a0a' });
    expect(await warnings()).toEqual([]);
  });

  it('warns when widgetButtons lacks decline and declineButtonEnforced is off, and not when either shows it', async () => {
    await fillDefaultPlaceholders();
    const themeId = await createTheme({ widgetButtons: ['accept', 'cpanel'] });
    // declineButtonEnforced is on by default: the banner shows decline anyway.
    expect(await warnings()).toEqual([]);

    await updateDomain({ declineButtonEnforced: false });
    const list = await warnings();
    expect(list).toEqual([
      expect.objectContaining({ kind: 'nudging', rule: 'declineMissing', path: `/theme/${themeId}/widgetButtons`, related: ['/declineButtonEnforced'], locales: [] }),
    ]);
    expect(list[0]!.message).toMatch(/no decline button/);
    // Style differences do not matter while there is no decline button beside accept to compare.
    await updateTheme(themeId, { declineButtonBackgroundColor: '#555555' });
    expect(summary(await warnings())).toEqual([`nudging declineMissing /theme/${themeId}/widgetButtons`]);

    // A page blocked behind such a banner: one more warning (by path, widgetBlocking before widgetButtons).
    await updateTheme(themeId, { widgetBlocking: true, declineButtonBackgroundColor: '#0a0a0a' });
    expect(summary(await warnings())).toEqual([
      `nudging pageBlockedWithoutDecline /theme/${themeId}/widgetBlocking`,
      `nudging declineMissing /theme/${themeId}/widgetButtons`,
    ]);

    await updateTheme(themeId, { widgetButtons: ['accept', 'decline', 'cpanel'] });
    expect(await warnings()).toEqual([]);
    // Without an accept-all button on the first layer there is nothing to nudge towards.
    await updateTheme(themeId, { widgetButtons: ['cpanel'] });
    expect(await warnings()).toEqual([]);
  });

  it('warns about a locale whose decline label is empty, since the banner then leaves the button out', async () => {
    await fillDefaultPlaceholders();
    const updated = await service.rest('PUT', `${domain.base}/locale/en_US`, { widgetDeclineButtonText: ' ' });
    expect(updated.status, updated.text).toBe(200);
    expect(await warnings()).toEqual([
      expect.objectContaining({
        kind: 'nudging',
        rule: 'declineTextMissing',
        path: '/locale/en_US/widgetDeclineButtonText',
        related: ['/locale/en_US/widgetFullConsentButtonText'],
        locales: ['en_US'],
      }),
    ]);
    await service.rest('PUT', `${domain.base}/locale/en_US`, { widgetDeclineButtonText: 'Reject all' });
    expect(await warnings()).toEqual([]);
  });

  it('sorts by kind, then path: contrast, nudging, placeholder', async () => {
    const themeId = await createTheme({ widgetButtons: ['accept'], windowForegroundColor: '#aaaaaa' });
    await updateDomain({ declineButtonEnforced: false });
    expect(summary(await warnings())).toEqual([
      `contrast textContrast /theme/${themeId}/windowForegroundColor`,
      `nudging declineMissing /theme/${themeId}/widgetButtons`,
      'placeholder placeholderMissing /placeholder/FIRMA',
      'placeholder placeholderMissing /placeholder/Firma_Datenschutz',
      'placeholder placeholderMissing /placeholder/Firma_Impressum',
      'placeholder placeholderMissing /placeholder/Firma_Ort',
    ]);
  });
});

describe('access', () => {
  it('answers 404 for an unknown domain or client, and for a domain of another client', async () => {
    for (const path of [`${API}/${domain.clientId}/domain/${unknownId()}`, `${API}/${unknownId()}/domain/${domain.domainId}`, `${API}/${domain.clientId}/domain/not-an-id`]) {
      const answer = await service.rest('GET', `${path}/bannerWarnings`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    const other = await createClient(service);
    const foreign = await createDomain(service, 'www.other.example', { clientId: other.id });
    // Another client's domain under this client's path.
    const mixed = await service.rest('GET', `${API}/${domain.clientId}/domain/${foreign.domainId}/bannerWarnings`);
    expect(mixed.status).toBe(404);
    const graphql = await service.graphql(QUERY, { clientId: domain.clientId, id: foreign.domainId });
    expect(graphql.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
  });

  it("answers a client's own key and refuses it another client's domain (404, NOT_FOUND)", async () => {
    const key = await createApiKey(service, domain.clientId, 'operator');
    const own = service.as(key.key);
    expect(summary(await restWarnings(domain, own))).toHaveLength(4);
    const other = await createClient(service);
    const foreign = await createDomain(service, 'www.other.example', { clientId: other.id });
    const answer = await own.rest('GET', `${foreign.base}/bannerWarnings`);
    expect(answer.status).toBe(404);
    const graphql = await own.graphql(QUERY, { clientId: foreign.clientId, id: foreign.domainId });
    expect(graphql.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(graphql.data?.domain ?? null).toBeNull();
  });

  it('reads and writes nothing', async () => {
    const before = await domainState(service, domain);
    await warnings();
    expect(await domainState(service, domain)).toEqual(before);
  });
});
