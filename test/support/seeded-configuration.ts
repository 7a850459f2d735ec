import { expect } from 'vitest';
import type { ServiceProcess } from './service-process.ts';

/**
 * A client with one domain configured through the REST API the way an operator would: settings,
 * placeholders, embeddings with cookies (one inactive, two of one name), two themes, an extra
 * inactive locale and changed texts, a webhook. For the configuration-as-code and backup suites.
 */

export const THEME_COLOURS = {
  primaryButtonBackgroundColor: '#1d4ed8',
  primaryButtonForegroundColor: '#ffffff',
  primaryButtonBorderColor: '#1d4ed8',
  declineButtonBackgroundColor: '#1d4ed8',
  declineButtonForegroundColor: '#ffffff',
  declineButtonBorderColor: '#1d4ed8',
  buttonBackgroundColor: '#ffffff',
  buttonForegroundColor: '#1d4ed8',
  buttonBorderColor: '#1d4ed8',
  windowBackgroundColor: '#ffffff',
  windowForegroundColor: '#1f2937',
  windowLinkColor: '#1d4ed8',
  windowBorderColor: '#d1d5db',
  iframeBlockerBackgroundColor: '#f3f4f6',
  iframeBlockerForegroundColor: '#1f2937',
  iframeBlockerButtonBackgroundColor: '#1d4ed8',
  iframeBlockerButtonForegroundColor: '#ffffff',
};

type Request = ServiceProcess['request'];

async function ok(request: Request, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await request(method, path, { body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body;
}

/** Seeds the configuration; `extraEmbeddings` more plain embeddings (with two cookies each) for size. */
export async function seedConfiguration(request: Request, { username = 'acme', extraEmbeddings = 0 } = {}): Promise<{ clientId: string; domainId: string }> {
  const client = await ok(request, 'POST', '/hosting/api/client', {
    username,
    emailAddress: `ops@${username}.example`,
    password: 'a long passphrase',
    company: 'ACME GmbH',
    active: true,
    domainMaxCount: 5,
    features: { canUseABTests: false },
  });
  const base = `/hosting/api/client/${client.id}`;
  const domain = await ok(request, 'POST', `${base}/domain`, {
    name: 'https://www.acme.example/shop/',
    country: 'DE',
    consentCookieLifetime: 180,
    iframeMarkers: ['youtube.com/embed'],
  });
  const at = `${base}/domain/${domain.id}`;
  await ok(request, 'PUT', `${at}/placeholder`, [
    { name: 'Firma', value: 'ACME GmbH' },
    { name: 'Firma_Datenschutz', value: 'https://www.acme.example/datenschutz' },
  ]);
  await ok(request, 'POST', `${at}/embedding`, {
    name: 'YouTube',
    purpose: '6cd2721',
    vendor: 'Google Ireland Limited',
    iframeMarkers: ['youtube.com/embed'],
    translations: { en_US: { description: 'Videos' } },
    assets: [
      { name: 'VISITOR_INFO1_LIVE', lifetime: '6 months', description: 'Bandwidth' },
      { name: 'YSC', lifetime: 'session' },
    ],
  });
  await ok(request, 'POST', `${at}/embedding`, { name: 'Matomo', purpose: 'a717ff5', assets: [{ name: '_pk_id.*', dynamic: true, lifetime: '13 months' }] });
  await ok(request, 'POST', `${at}/embedding`, { name: 'Matomo', purpose: 'a717ff5', active: false, description: 'the old tracker' });
  for (let i = 1; i <= extraEmbeddings; i++) {
    await ok(request, 'POST', `${at}/embedding`, {
      name: `Service ${String(i).padStart(3, '0')}`,
      purpose: '15c61c3',
      vendor: `Vendor ${i} Ltd`,
      description: `What service ${i} does on the site, in a sentence or two.`,
      scriptMarkers: [`cdn${i}.example.com/script.js`],
      assets: [
        { name: `svc${i}_id`, lifetime: '1 year', description: 'Tells visitors apart.' },
        { name: `svc${i}_session`, lifetime: 'session' },
      ],
    });
  }
  await ok(request, 'POST', `${at}/theme`, { name: 'Corporate', default: true, widgetPosition: 'bottomright', ...THEME_COLOURS });
  await ok(request, 'POST', `${at}/theme`, { name: 'Dark', ...THEME_COLOURS, windowBackgroundColor: '#111111' });
  await ok(request, 'POST', `${at}/locale`, { name: 'fr', active: false, widgetTitle: 'Vos données' });
  await ok(request, 'PUT', `${at}/locale/de_DE`, { widgetTitle: 'Ihre Privatsphäre', purposeNames: { cdcbd7c: 'Werbung' } });
  await ok(request, 'PUT', `${base}/webhook`, { url: 'https://hooks.acme.example/findings' });
  return { clientId: client.id as string, domainId: domain.id as string };
}
