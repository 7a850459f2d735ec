import { z } from 'zod';
import {
  createSchema,
  defaultsOf,
  fieldList,
  generatedId,
  responseSchema,
  updateSchema,
} from '../../kernel/contract/field-list.ts';
import { MAX_INT32, nameText, readOnly, text } from '../../kernel/contract/fields.ts';

/** Client: a customer account (management, same shape as CCM19's Hosting API). */

/** The switches of what a client may use, as CCM19 names them. */
export const CLIENT_FEATURES = [
  'canUseABTests',
  'canUseAnalytics',
  'canUseConsentSharing',
  'canUseDomAPI',
  'canUseIAB',
  'canUseIframeCSS',
  'canUseIframes',
  'canUseIndCSS',
  'canUseMultiDom',
  'canUseOwnLogo',
  'canUseScripts',
  'canUseUserGroupRights',
  'moreThan2Lang',
] as const;
export type ClientFeature = (typeof CLIENT_FEATURES)[number];

/**
 * The switches that let the client's own keys write code that runs in every visitor's browser,
 * with the fields each one guards. On unless set to false: CCM19 lets every client write them,
 * and clients made before the switch counted keep working; the administrator turns one off to
 * hand out keys that cannot change code.
 */
export const CODE_FEATURES = {
  canUseScripts: "an embedding's `scriptHtmlCode`",
  canUseIndCSS: "a theme's `customCss`",
  canUseIframeCSS: "a theme's `customCssForIframeBlocker`",
} as const satisfies Partial<Record<ClientFeature, string>>;
export type CodeFeature = keyof typeof CODE_FEATURES;

const isCodeFeature = (name: ClientFeature): name is CodeFeature => Object.hasOwn(CODE_FEATURES, name);

/**
 * What the other switches govern (feature-gates.ts): while one is off, a client key's write that
 * would use it is refused (403 naming the switch) and the banner ignores the setting.
 */
export const GATED_FEATURES = {
  canUseOwnLogo: "a theme's own logo (`logoEnabled`, `logoImage`); off: the banner shows no logo",
  canUseIframes:
    "the iframe blocker's options (a domain's `blockIframes`, `iframeBlockMode`, `iframeMarkers`, `rememberIframeConsentPerDomain`, `appendConsentSwitchToIframes`); off: the banner holds every iframe from elsewhere until consent, without those options",
  canUseConsentSharing: "a domain's consent sharing (`consentSharingDomains`, `consentSharingCrossDomain`); off: the banner shares no consent",
  canUseIAB: "IAB TCF (a domain's `tcfEnabled`); off: the banner does not speak TCF",
  moreThan2Lang: "more than two languages (a domain's `locales`); off: the banner offers the domain's first two",
} as const satisfies Partial<Record<ClientFeature, string>>;

/** The switches CCM19 has for parts of its product this service does not have: kept and sent back, governing nothing. */
const UNUSED_FEATURES: Partial<Record<ClientFeature, string>> = {
  canUseABTests: "CCM19's A/B tests of themes",
  canUseAnalytics: "CCM19's extended statistics",
  canUseDomAPI: "CCM19's DOM API",
  canUseMultiDom: "CCM19's multi-domain management",
  canUseUserGroupRights: "CCM19's user groups and their rights",
};

/** Every switch is on until set to false: CCM19 makes new clients with access to everything. */
export const FEATURE_DEFAULTS = Object.fromEntries(CLIENT_FEATURES.map((name) => [name, true])) as Record<ClientFeature, boolean>;

const ADMINISTERED = "Default true; only the administrator changes it, and the administrator's writes ignore it.";

const featureSwitch = (name: ClientFeature) =>
  z.boolean().meta({
    description: isCodeFeature(name)
      ? `Whether the client's own keys may set ${CODE_FEATURES[name]}: code that runs on every visitor's page (code injection by design). ${ADMINISTERED}`
      : Object.hasOwn(GATED_FEATURES, name)
        ? `Whether the client may use ${GATED_FEATURES[name as keyof typeof GATED_FEATURES]}. ${ADMINISTERED}`
        : `Whether the client may use ${UNUSED_FEATURES[name]}; this service has no such part, so the switch is only kept. Default true.`,
  });
/** Every switch, as responses send them. */
const clientFeaturesRead = z
  .strictObject(Object.fromEntries(CLIENT_FEATURES.map((name) => [name, featureSwitch(name)])) as Record<ClientFeature, z.ZodBoolean>)
  .meta({
    id: 'ClientFeatures',
    description:
      "What the client may use, as CCM19 names it; every switch defaults to true (CCM19 makes new clients with access to everything). While a switch is off, a client key's write that would use what it governs is answered 403 naming the switch (sending back the value an object already has is no change), and the banner ignores those settings.",
  });
/** Some of the switches: a write changes only those it sends. */
const clientFeaturesWrite = clientFeaturesRead
  .partial()
  .meta({ id: 'ClientFeaturesInput', description: 'Switches to set; those not sent keep their value (their default on create).' });

/**
 * A bcrypt hash as CCM19 and PHP write them (`$2y$`), or as other libraries do (`$2a$`, `$2b$`):
 * a cost of 04 to 31 and 53 characters of bcrypt's base64 (salt and hash).
 */
const BCRYPT_HASH = /^\$2[aby]\$(?:0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/** bcrypt reads no more than 72 bytes of a password; a longer one would silently match its prefix. */
const password = text()
  .min(1, 'must not be empty')
  .refine((value) => Buffer.byteLength(value, 'utf8') <= 72, { message: 'must be at most 72 bytes in UTF-8 (bcrypt reads no more)' })
  .meta({
    description:
      'Write-only: the password in plain text, stored only as a bcrypt hash and never sent back. On create `password` or `passwordHash` is required; `password` wins when both are sent. Omitted on update, the password stays as it is.',
  });

const passwordHash = z
  .string()
  .regex(BCRYPT_HASH, 'must be a bcrypt hash ($2y$, $2b$ or $2a$, cost 04 to 31)')
  .meta({ description: 'Write-only: a bcrypt hash (`$2y$…`) stored as given instead of hashing `password`; never sent back.' });

/** A quota: at least -1, where -1 means unlimited. */
const quota = (what: string) =>
  z
    .int('must be an integer')
    .min(-1, 'must be -1 (unlimited) or more')
    .max(MAX_INT32)
    .meta({ description: `${what} -1 = unlimited. Default 0. Binds the client's own key; the administrator's writes ignore it.` });

const readOnlyCount = (description: string) => ({
  write: readOnly().meta({ readOnly: true, description: 'Read-only: ignored in writes.' }),
  read: z.int().min(0).meta({ description }),
  readOnly: true,
} as const);

export const clientFields = fieldList({
  id: generatedId(),
  username: { write: nameText(180).meta({ description: 'Unique across clients.' }), required: true },
  password: { write: password, writeOnly: true },
  passwordHash: { write: passwordHash, writeOnly: true },
  emailAddress: { write: z.email('must be an e-mail address').max(320), required: true },
  firstName: { write: text().max(255), default: '' },
  lastName: { write: text().max(255), default: '' },
  company: { write: text().max(255), default: '' },
  active: { write: z.boolean().meta({ description: 'Whether the client (and its keys) may log in. Default false.' }), default: false },
  domainCount: readOnlyCount('Read-only: how many domains the client has.'),
  domainMaxCount: { write: quota('How many domains the client may have;'), default: 0 },
  whitelabelCount: readOnlyCount('Read-only: how many of its domains are whitelabel.'),
  whitelabelMaxCount: { write: quota('How many whitelabel domains the client may have;'), default: 0 },
  widgetDisplayCount: readOnlyCount(
    'Read-only: banner loads of all its domains this calendar month (0 until the service counts banner loads).',
  ),
  widgetDisplayMaxCount: { write: quota('How many banner loads a month the client may have;'), default: 0 },
  autoCreateDomains: {
    write: z.boolean().meta({
      description:
        "Whether the client's key-less snippet works: the onboarding's snippet with `client={clientId}` in place of `domain={domainId}` in app.js's address: it loads the banner of the client's domain with the page's host (from the browser's Referer, else Origin), " +
        "and creates that domain (the page's scheme and host, path `/`, default settings) when the client has none. CCM19 warns of by-catch; so that key-less loads cannot make rows without end, a domain is created only " +
        'for a load by a page\'s script (not a page opened or framed at that address: `Sec-Fetch-Dest`) from a public host name (no IP address, no special-use or single-label name, not a translator, cache, archive or proxy host, not this service), ' +
        'within `domainMaxCount` and never beyond 100 domains, at most 10 an hour per client; refused loads answer 4xx and create nothing. Only the administrator may change it. Default false.',
    }),
    default: false,
  },
  features: { write: clientFeaturesWrite, read: clientFeaturesRead },
});

/** Whether a create payload says how the client logs in. */
const credentialsGiven = (payload: unknown) =>
  typeof payload === 'object' && payload !== null && ('password' in payload || 'passwordHash' in payload);

export const clientCreate = createSchema(clientFields)
  .refine(credentialsGiven, {
    path: ['password'],
    message: 'is required (or passwordHash)',
    // Reported beside the other fields' problems, not only once they are right.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
  })
  .meta({
    id: 'ClientCreate',
    examples: [
      {
        username: 'example-gmbh',
        password: 'a long passphrase of my own',
        emailAddress: 'webmaster@example.org',
        firstName: 'Erika',
        lastName: 'Mustermann',
        company: 'Example GmbH',
        active: true,
        domainMaxCount: 5,
      },
    ],
  });
export const clientUpdate = updateSchema(clientFields).meta({ id: 'ClientUpdate', examples: [{ company: 'Example AG', domainMaxCount: 10 }] });
/** A client as the service sends it: every field but the password, defaults filled in. */
export const clientResponse = responseSchema(clientFields).meta({ id: 'Client' });

/** One domain's banner loads this month in "read all clients". */
const domainCallCount = z
  .strictObject({
    domName: z.string().meta({ description: 'The domain name (without its path).' }),
    count: z.int().min(0).meta({ description: 'Banner loads of the domain this calendar month (UTC).' }),
  })
  .meta({ id: 'DomainCallCount' });
export type DomainCallCount = z.output<typeof domainCallCount>;

/** A client in the answer of "read all clients": with its banner loads this month per domain. */
export const clientListItem = clientResponse
  .extend({
    actualCallCount: z.int().min(0).meta({ description: 'Banner loads of all its domains this calendar month (0 until the service counts them).' }),
    domainCountData: z.array(domainCallCount).meta({
      description:
        "Per domain of the client, ordered by name: an object `{ domName, count }` — the domain's name and its banner loads this calendar month (UTC), the entries of CCM19's `Array<domainName, callCount>`, with the keys `domName` and `count` that CCM19 documents for its statistics answer (`client_all`), so a PHP client reads `$entry['domName']` and `$entry['count']`. An empty list for a client without domains.",
    }),
  })
  .meta({ id: 'ClientListItem' });

export const clientDefaults = defaultsOf(clientFields);

export type ClientCreate = z.infer<typeof clientCreate>;
export type ClientUpdate = z.infer<typeof clientUpdate>;
export type Client = z.output<typeof clientResponse>;
export type ClientListItem = z.output<typeof clientListItem>;
