import {
  AVAILABLE_PRESET_BLOCKABLE_DESCRIPTION,
  AVAILABLE_PRESET_NOTE_DESCRIPTION,
  AVAILABLE_PRESET_WHY_DESCRIPTION,
  type AvailablePreset,
  ONBOARDING_STORAGE_TYPES,
  onboardingCookieList,
  onboardingLegalFindings,
  type OnboardingPresetResult,
  onboardingPresetList,
  type OnboardingScanResult,
  PRESET_ACTIVE_DESCRIPTION,
  PRESET_NOTE_DESCRIPTION,
  PRESET_WHY_KINDS,
  type PresetWhy,
  RECORDED_SINCE,
  SCAN_ADVICE_DESCRIPTION,
  SCAN_ADVICE_KIND_DESCRIPTION,
  SCAN_ADVICE_KINDS,
  SCAN_VERDICTS_DESCRIPTION,
  type ScanAdvice,
  type ScanVerdict,
  THIRD_PARTIES_DESCRIPTION,
  THIRD_PARTY_BEACON_REASONS,
  type ThirdParty,
} from './onboarding.contract.ts';
import { REQUEST_KINDS, SCAN_PHASES } from '../../scanner/traffic.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder, oneOf } from '../../graphql/builder.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { EmbeddingType } from '../embeddings/embedding.graphql.ts';
import { PlaceholderType } from '../placeholders/placeholder.graphql.ts';
import { PresetTranslationType, toTranslationEntries } from '../catalog/catalog.graphql.ts';
import {
  createEmbeddingsFromCookies,
  type CookiePlan,
  type EmbeddingPlan,
  type EmbeddingsFromCookiesPlan,
  planEmbeddingsFromCookies,
} from './cookies.operation.ts';
import { importPresets } from './presets.operation.ts';
import { applyLegalFindings } from './legal-findings.operation.ts';
import { missingPlaceholders } from './missing-placeholders.ts';
import { scanDomain } from './scan.operation.ts';
import { embedCodeSnippets } from './snippets.operation.ts';

// ── scan ────────────────────────────────────────────────────────────────────

type ScanStorage = OnboardingScanResult['storage'];

const PostalAddressType = builder.objectRef<OnboardingScanResult['address']>('PostalAddress').implement({
  description: "The operator's address as the imprint page states it.",
  fields: (t) => ({
    company: t.exposeString('company', { nullable: true }),
    street: t.exposeString('street', { nullable: true }),
    zipCode: t.exposeString('zipCode', { nullable: true }),
    city: t.exposeString('city', { nullable: true }),
  }),
});

const EvidenceType = builder.objectRef<AvailablePreset['evidence'][number]>('PresetEvidence').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: oneOf(['cookie', 'localStorage', 'sessionStorage', 'script', 'iframe', 'stylesheet', 'font']) }),
    value: t.exposeString('value'),
  }),
});

/** One item of a suggested service's own evidence; which fields are set depends on `kind`. */
const PresetWhyType = builder.objectRef<PresetWhy>('PresetWhy').implement({
  description: 'One piece of evidence on the site that a service is there (AvailablePreset.why).',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: oneOf(PRESET_WHY_KINDS) }),
    url: t.string({ nullable: true, description: 'script, frame, stylesheet, font: the address the page loaded.', resolve: (why) => ('url' in why ? why.url : null) }),
    name: t.string({ nullable: true, description: 'cookie, localStorage, sessionStorage: its name.', resolve: (why) => ('name' in why ? why.name : null) }),
    domain: t.string({ nullable: true, description: "cookie: the cookie's domain.", resolve: (why) => ('domain' in why ? why.domain : null) }),
    origin: t.string({ nullable: true, description: 'localStorage, sessionStorage: the origin (frame) the key belongs to.', resolve: (why) => ('origin' in why ? why.origin : null) }),
  }),
});

const AvailablePresetType = builder.objectRef<AvailablePreset>('AvailablePreset').implement({
  description: 'A known service the scan found on the site; import it with importPresets.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    purpose: t.exposeString('purpose'),
    vendor: t.exposeString('vendor'),
    translations: t.field({ type: [PresetTranslationType], resolve: (preset) => toTranslationEntries(preset.translations) }),
    evidence: t.expose('evidence', { type: [EvidenceType] }),
    blockable: t.exposeBoolean('blockable', { nullable: true, description: `${AVAILABLE_PRESET_BLOCKABLE_DESCRIPTION} ${RECORDED_SINCE}` }),
    note: t.exposeString('note', { nullable: true, description: AVAILABLE_PRESET_NOTE_DESCRIPTION }),
    why: t.expose('why', { type: [PresetWhyType], nullable: true, description: `${AVAILABLE_PRESET_WHY_DESCRIPTION} ${RECORDED_SINCE}` }),
  }),
});

const ScanAdviceType = builder.objectRef<ScanAdvice>('ScanAdvice').implement({
  description: 'Something the site loads from another site that no consent banner can hold back, with what to change on the site.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: `${oneOf(SCAN_ADVICE_KINDS)} ${SCAN_ADVICE_KIND_DESCRIPTION}` }),
    host: t.exposeString('host', { description: "The host of the other site that receives the requests (it gets every visitor's IP address)." }),
    presetId: t.exposeInt('presetId', { nullable: true, description: 'The catalog service the requests belong to, or null for a host the catalog does not know.' }),
    pages: t.exposeStringList('pages', { description: 'The pages of the site that load it, sorted.' }),
    sources: t.exposeStringList('sources', { description: "The addresses requested (the frames' src, the stylesheets, the font files), sorted." }),
    fix: t.exposeString('fix', { description: 'What to change on the site, in English (a dashboard translates it by kind).' }),
  }),
});

const ThirdPartyServiceType = builder.objectRef<ThirdParty['services'][number]>('ThirdPartyService').implement({
  description: 'A catalog service a third-party host is.',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'Its preset id.' }), name: t.exposeString('name') }),
});

const TrackerListEntityType = builder.objectRef<NonNullable<ThirdParty['trackerList']>>('TrackerListEntity').implement({
  description: 'Who owns a third-party host according to the third-party-web list.',
  fields: (t) => ({
    name: t.exposeString('name'),
    company: t.exposeString('company'),
    category: t.exposeString('category', { description: 'ad, analytics, social, marketing, tag-manager, customer-success, video, content, cdn, hosting, utility, consent-provider or other.' }),
  }),
});

const ThirdPartyBeaconType = builder.objectRef<ThirdParty['beacons'][number]>('ThirdPartyBeacon').implement({
  description: 'A tracking beacon a third-party host received.',
  fields: (t) => ({
    url: t.exposeString('url'),
    why: t.exposeString('why', { description: oneOf(THIRD_PARTY_BEACON_REASONS) }),
  }),
});

const ThirdPartyType = builder.objectRef<ThirdParty>('ThirdParty').implement({
  description: 'A host of another site that the pages contacted, with what it was asked for and who it is.',
  fields: (t) => ({
    host: t.exposeString('host'),
    site: t.exposeString('site', { description: 'Its registrable domain.' }),
    services: t.expose('services', { type: [ThirdPartyServiceType], description: 'The catalog services it is; empty when the catalog does not know it.' }),
    trackerList: t.expose('trackerList', { type: TrackerListEntityType, nullable: true, description: 'Its entity in the third-party-web list, or null.' }),
    kinds: t.exposeStringList('kinds', { description: oneOf(REQUEST_KINDS, 'What it was asked for, each of') }),
    pages: t.exposeStringList('pages', { description: 'The pages on which it was contacted, sorted.' }),
    initiators: t.exposeStringList('initiators', { description: 'The scripts or frame documents that caused the requests, sorted.' }),
    beacons: t.expose('beacons', { type: [ThirdPartyBeaconType] }),
    cookies: t.exposeStringList('cookies', { description: 'Cookies its answers set and third-party cookies the browser sends it, sorted.' }),
    phases: t.exposeStringList('phases', { description: oneOf(SCAN_PHASES, 'When it was contacted, each of') }),
    recognised: t.exposeString('recognised', { nullable: true, description: 'catalog, tracker-list, or null: nobody knows the host.' }),
  }),
});

export const ScanCookieType = builder.objectRef<ScanStorage['cookies'][number]>('ScanCookie').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    domain: t.exposeString('domain'),
    path: t.exposeString('path'),
    expires: t.exposeString('expires', { nullable: true, description: 'ISO time; null for a session cookie.' }),
    httpOnly: t.exposeBoolean('httpOnly'),
    secure: t.exposeBoolean('secure'),
    sameSite: t.exposeString('sameSite', { nullable: true }),
    party: t.exposeString('party', { description: 'first or third.' }),
    phase: t.string({ description: PHASE_DESCRIPTION, resolve: (cookie) => cookie.phase ?? 'before-consent' }),
    setBy: t.string({ nullable: true, description: SET_BY_DESCRIPTION, resolve: (cookie) => cookie.setBy ?? null }),
  }),
});

/** When and by what a cookie or key was first seen. A scan kept from before they were recorded has neither: it reads as before consent, setter unknown (as the REST answer's defaults). */
const PHASE_DESCRIPTION = 'before-consent, or after-accept: first seen after the scan accepted a banner the site already runs (existingBanner).';
const SET_BY_DESCRIPTION =
  'What first set it, when the scan saw it: the response whose Set-Cookie set it, or the script that wrote it (an inline script: its page).';

export const StorageKeyType = builder.objectRef<ScanStorage['localStorage'][number]>('ScanStorageKey').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    origin: t.exposeString('origin'),
    phase: t.string({ description: PHASE_DESCRIPTION, resolve: (key) => key.phase ?? 'before-consent' }),
    setBy: t.string({ nullable: true, description: SET_BY_DESCRIPTION, resolve: (key) => key.setBy ?? null }),
  }),
});

const ScanVerdictType = builder.objectRef<ScanVerdict>('ScanVerdict').implement({
  fields: (t) => ({
    phase: t.exposeString('phase', { description: 'before-consent or after-accept.' }),
    subject: t.exposeString('subject', { description: 'cookie, localStorage, sessionStorage or beacon.' }),
    text: t.exposeString('text'),
  }),
});

const ExistingBannerType = builder.objectRef<NonNullable<OnboardingScanResult['existingBanner']>>('ExistingBanner').implement({
  description: "A consent banner of another tool that the site already runs, as the scan's second pass found and accepted it.",
  fields: (t) => ({
    cmp: t.exposeString('cmp', { description: 'The @duckduckgo/autoconsent rule that recognised it.' }),
    accepted: t.exposeBoolean('accepted'),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const ScanStorageType = builder.objectRef<ScanStorage>('ScanStorage').implement({
  fields: (t) => ({
    cookies: t.expose('cookies', { type: [ScanCookieType] }),
    localStorage: t.expose('localStorage', { type: [StorageKeyType] }),
    sessionStorage: t.expose('sessionStorage', { type: [StorageKeyType] }),
    indexedDB: t.expose('indexedDB', { type: [StorageKeyType], description: 'IndexedDB databases, by name and origin.' }),
    cacheStorage: t.expose('cacheStorage', { type: [StorageKeyType], description: 'Cache Storage caches, by name and origin.' }),
  }),
});

export const ScanPageType = builder.objectRef<OnboardingScanResult['pages'][number]>('ScanPage').implement({
  fields: (t) => ({
    url: t.exposeString('url'),
    status: t.exposeInt('status', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    landedUrl: t.exposeString('landedUrl', { nullable: true, description: 'Where the page landed after redirects, when it loaded.' }),
    slow: t.boolean({ description: 'Some of its requests had not finished when it was read; what had loaded was taken.', resolve: (page) => page.slow === true }),
  }),
});

export const ScanResultType = builder.objectRef<OnboardingScanResult>('OnboardingScanResult').implement({
  fields: (t) => ({
    address: t.expose('address', { type: PostalAddressType }),
    imprintUrl: t.exposeString('imprintUrl', { nullable: true }),
    privacyPolicyUrl: t.exposeString('privacyPolicyUrl', { nullable: true }),
    availablePresets: t.expose('availablePresets', { type: [AvailablePresetType] }),
    storage: t.expose('storage', { type: ScanStorageType }),
    advice: t.expose('advice', { type: [ScanAdviceType], nullable: true, description: `${SCAN_ADVICE_DESCRIPTION} ${RECORDED_SINCE}` }),
    thirdParties: t.expose('thirdParties', { type: [ThirdPartyType], nullable: true, description: `${THIRD_PARTIES_DESCRIPTION} ${RECORDED_SINCE}` }),
    verdicts: t.expose('verdicts', { type: [ScanVerdictType], nullable: true, description: `${SCAN_VERDICTS_DESCRIPTION} ${RECORDED_SINCE}` }),
    existingBanner: t.field({
      type: ExistingBannerType,
      nullable: true,
      description: 'A consent banner of another tool that the site already runs, found and accepted by the second pass; null when none showed (or the scan was made before this was recorded).',
      resolve: (result) => result.existingBanner ?? null,
    }),
    url: t.exposeString('url', { description: 'The address the scan opened.' }),
    pages: t.expose('pages', { type: [ScanPageType] }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

// ── snippets ────────────────────────────────────────────────────────────────

type LocaleSnippet = { locale: string; snippet: string };

const LocaleSnippetType = builder.objectRef<LocaleSnippet>('LocaleSnippet').implement({
  fields: (t) => ({ locale: t.exposeString('locale'), snippet: t.exposeString('snippet') }),
});

const EmbedCodeSnippetsType = builder
  .objectRef<{ default: string; locales: LocaleSnippet[] }>('EmbedCodeSnippets')
  .implement({
    description: 'HTML that puts the consent manager on the site.',
    fields: (t) => ({
      default: t.exposeString('default', { description: "Loads it in the visitor's language." }),
      locales: t.expose('locales', { type: [LocaleSnippetType], description: 'One per active locale, forcing that language.' }),
    }),
  });

// ── cookies → embeddings plan ───────────────────────────────────────────────

const CookiePlanType = builder.objectRef<CookiePlan>('CookiePlan').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    storageType: t.exposeString('storageType'),
    rule: t.exposeString('rule', { nullable: true, description: 'exact, wildcard or imported (by name), domain (by where it was set); null when nobody recognised it.' }),
    presetId: t.int({ nullable: true, resolve: (plan) => plan.preset?.id ?? null }),
    presetName: t.string({ nullable: true, resolve: (plan) => plan.preset?.name ?? null }),
    pattern: t.exposeString('pattern', { nullable: true, description: 'The catalog name that matched.' }),
  }),
});

const EmbeddingPlanType = builder.objectRef<EmbeddingPlan>('EmbeddingPlan').implement({
  fields: (t) => ({
    action: t.exposeString('action', { description: 'create or extend.' }),
    presetId: t.exposeInt('presetId', { nullable: true }),
    name: t.exposeString('name'),
    embeddingId: t.exposeID('embeddingId', { nullable: true }),
    assets: t.exposeStringList('assets'),
    note: t.exposeString('note', {
      nullable: true,
      description:
        'Set when the service is not blockable (Preset.blockable): why an embedding created for it is inactive, or why an active one it extends should be switched off.',
    }),
  }),
});

const PlanType = builder.objectRef<EmbeddingsFromCookiesPlan>('EmbeddingsFromCookiesPlan').implement({
  fields: (t) => ({
    cookies: t.expose('cookies', { type: [CookiePlanType] }),
    embeddings: t.expose('embeddings', { type: [EmbeddingPlanType] }),
  }),
});

const OnboardingCookieInput = builder.inputType('OnboardingCookieInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    storageType: t.string({ required: true, description: oneOf(ONBOARDING_STORAGE_TYPES) }),
    domain: t.string({ required: false, description: 'The cookie’s domain or the key’s origin, as the scan found it: a cookie on a recognised service’s own domain goes to that service.' }),
  }),
});

const PostalAddressInput = builder.inputType('PostalAddressInput', {
  fields: (t) => ({
    company: t.string({ description: 'The operator: fills {FIRMA}.' }),
    street: t.string(),
    zipCode: t.string(),
    city: t.string({ description: 'Town: fills {Firma_Ort}.' }),
  }),
});

const OnboardingLegalFindingsInput = builder.inputType('OnboardingLegalFindingsInput', {
  description: 'What a scan found about the operator: the address, imprintUrl and privacyPolicyUrl of scanDomain, as it answered them.',
  fields: (t) => ({
    address: t.field({ type: PostalAddressInput }),
    imprintUrl: t.string({ description: 'The imprint page: fills {Firma_Impressum}.' }),
    privacyPolicyUrl: t.string({ description: 'The privacy policy page: fills {Firma_Datenschutz}.' }),
  }),
});

const OnboardingPresetInput = builder.inputType('OnboardingPresetInput', {
  fields: (t) => ({
    id: t.int({ required: true, description: 'A preset id from the catalog.' }),
    active: t.boolean({ description: PRESET_ACTIVE_DESCRIPTION }),
  }),
});

const OnboardingPresetResultType = builder.objectRef<OnboardingPresetResult>('OnboardingPresetResult').implement({
  fields: (t) => ({
    presetId: t.exposeInt('presetId'),
    embeddingId: t.exposeID('embeddingId', { description: 'The embedding created from the preset, or the one the domain already had for it.' }),
    active: t.exposeBoolean('active', {
      description:
        "Whether that embedding is active now, so in the banner. A preset the domain already had keeps its embedding's state unless it was sent with active: true; a preset that is not blockable is never switched on (see note).",
    }),
    note: t.exposeString('note', { nullable: true, description: PRESET_NOTE_DESCRIPTION }),
  }),
});

builder.objectFields(DomainType, (t) => ({
  missingPlaceholders: t.stringList({
    description:
      "The placeholder names that a text of one of the domain's active locales refers to ({Name}) and that the domain does not define, or defines as empty: the banner shows them as written. Sorted; empty when nothing is missing. applyLegalFindings fills the four the default texts use.",
    resolve: (domain, _, ctx) => missingPlaceholders(ctx, scopeOf(domain)),
  }),
  embedCodeSnippets: t.field({
    type: EmbedCodeSnippetsType,
    resolve: async (domain, _, ctx) => {
      const { default: fallback, ...byLocale } = await embedCodeSnippets(ctx, scopeOf(domain));
      return { default: fallback, locales: Object.entries(byLocale).map(([locale, snippet]) => ({ locale, snippet })) };
    },
  }),
  embeddingsFromCookiesPlan: t.field({
    type: PlanType,
    description: 'What createEmbeddingsFromCookies would do with these cookies, without writing anything.',
    args: { cookies: t.arg({ type: [OnboardingCookieInput], required: true }).validate(onboardingCookieList) },
    resolve: (domain, { cookies }, ctx) => planEmbeddingsFromCookies(ctx, scopeOf(domain), cookies),
  }),
}));

builder.mutationFields((t) => ({
  scanDomain: t.field({
    type: ScanResultType,
    description: "Opens the domain's site in a headless browser and reports cookies, storage, legal pages and known services.",
    args: domainArgs(t),
    resolve: (_, scope, ctx) => scanDomain(ctx, scope),
  }),
  applyLegalFindings: t.field({
    type: [PlaceholderType],
    description:
      "Writes a scan's findings about the operator into the domain's placeholders {FIRMA}, {Firma_Ort}, {Firma_Impressum} and {Firma_Datenschutz}, which the default banner texts use; a finding that is null leaves its placeholder as it is. Returns the placeholders written; Domain.missingPlaceholders tells what the banner still lacks.",
    args: {
      ...domainArgs(t),
      findings: t.arg({ type: OnboardingLegalFindingsInput, required: true }).validate(onboardingLegalFindings),
    },
    resolve: (_, { findings, ...scope }, ctx) => applyLegalFindings(ctx, scope, findings),
  }),
  importPresets: t.field({
    type: [OnboardingPresetResultType],
    description:
      'One embedding per preset, all or nothing; results in request order. A new embedding is active (in the banner) unless active: false is sent, or the preset is not blockable (Preset.blockable: it loads only as stylesheets and fonts, such as Google Fonts), which is imported inactive with a note saying why; a preset the domain already has answers with its embedding, switched on only by active: true.',
    args: { ...domainArgs(t), presets: t.arg({ type: [OnboardingPresetInput], required: true }).validate(onboardingPresetList) },
    resolve: (_, { presets, ...scope }, ctx) => importPresets(ctx, scope, presets),
  }),
  createEmbeddingsFromCookies: t.field({
    type: [EmbeddingType],
    description: 'Embeddings for the services these cookies belong to (created or extended), all or nothing.',
    args: { ...domainArgs(t), cookies: t.arg({ type: [OnboardingCookieInput], required: true }).validate(onboardingCookieList) },
    resolve: (_, { cookies, ...scope }, ctx) => createEmbeddingsFromCookies(ctx, scope, cookies),
  }),
}));
