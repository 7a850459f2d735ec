import { isAdmin, type RequestContext } from '../../kernel/context.ts';
import { forbidden } from '../../kernel/errors.ts';
import { requireClient } from './client.access.ts';
import { type ClientFeature, FEATURE_DEFAULTS } from './client.contract.ts';

/**
 * The settings a client's feature switch governs (beyond the code switches of code-permission.ts):
 * which object holds each, what it may hold while the switch is off, and what the banner uses
 * instead while it is off. A client's switches are on unless the administrator turned one off.
 */
export type FeatureGate = {
  feature: ClientFeature;
  field: string;
  /** What the setting may be without the feature (the banner's own behaviour). */
  allows: (value: unknown) => boolean;
  /** What the banner uses instead while the feature is off. */
  without: (value: unknown) => unknown;
};

const fixed = (feature: ClientFeature, field: string, off: unknown): FeatureGate => ({
  feature,
  field,
  allows: (value) => JSON.stringify(value) === JSON.stringify(off),
  without: () => structuredClone(off),
});

/** At most two languages without `moreThan2Lang`: the domain's first two. */
const MAX_LOCALES_WITHOUT = 2;

export const DOMAIN_GATES: readonly FeatureGate[] = [
  fixed('canUseConsentSharing', 'consentSharingDomains', []),
  fixed('canUseConsentSharing', 'consentSharingCrossDomain', false),
  fixed('canUseIAB', 'tcfEnabled', false),
  // Without the feature the iframe blocker runs as it comes: every iframe from elsewhere held, no options.
  fixed('canUseIframes', 'blockIframes', true),
  fixed('canUseIframes', 'iframeBlockMode', 'whitelist'),
  fixed('canUseIframes', 'iframeMarkers', []),
  fixed('canUseIframes', 'rememberIframeConsentPerDomain', false),
  fixed('canUseIframes', 'appendConsentSwitchToIframes', false),
  {
    feature: 'moreThan2Lang',
    field: 'locales',
    allows: (value) => Array.isArray(value) && value.length <= MAX_LOCALES_WITHOUT,
    without: (value) => (value as unknown[]).slice(0, MAX_LOCALES_WITHOUT),
  },
];

export const THEME_GATES: readonly FeatureGate[] = [fixed('canUseOwnLogo', 'logoEnabled', false), fixed('canUseOwnLogo', 'logoImage', null)];

/** Whether a client's switch is on (a switch never set is on). */
export const featureOn = (features: Partial<Record<ClientFeature, boolean>> | undefined, feature: ClientFeature): boolean =>
  features?.[feature] ?? FEATURE_DEFAULTS[feature];

/**
 * Refuses (403, naming the switch) a client key's write that sets a governed setting to what only
 * the feature allows while its client's switch is off. Sending the value the object already has
 * is no change, so reading an object and writing it back works. `current` reads the object's
 * values (`{}` for a new object; undefined: no such object, the operation answers that itself); it runs only
 * when a switch is off. The administrator may always.
 */
export async function assertMayUseFeatures(
  ctx: RequestContext,
  clientId: string,
  gates: readonly FeatureGate[],
  input: Record<string, unknown>,
  current: () => Promise<Record<string, unknown> | undefined>,
): Promise<void> {
  if (isAdmin(ctx.caller)) return;
  const using = gates.filter((gate) => input[gate.field] !== undefined && !gate.allows(input[gate.field]));
  if (using.length === 0) return;
  const client = await requireClient(ctx, clientId);
  const locked = using.filter((gate) => !featureOn(client.features, gate.feature));
  if (locked.length === 0) return;
  const values = await current();
  if (values === undefined) return;
  const changed = locked.filter((gate) => JSON.stringify(values[gate.field]) !== JSON.stringify(input[gate.field]));
  if (changed.length === 0) return;
  throw forbidden(
    changed.map(({ field, feature }) => `${field} needs the client's feature ${feature}, which the administrator has turned off`).join('; '),
  );
}

/** The settings as the banner uses them: those of a switched-off feature replaced by what the banner does without it. */
export function withinFeatures<T extends object>(
  settings: T,
  gates: readonly FeatureGate[],
  features: Partial<Record<ClientFeature, boolean>> | undefined,
): T {
  const off = gates.filter((gate) => !featureOn(features, gate.feature) && gate.field in settings);
  if (off.length === 0) return settings;
  const copy: Record<string, unknown> = { ...(settings as Record<string, unknown>) };
  for (const gate of off) copy[gate.field] = gate.without(copy[gate.field]);
  return copy as T;
}
