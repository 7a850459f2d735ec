import { access, constants } from 'node:fs/promises';

/**
 * The Chromium a scan runs: `CHROME_PATH` when set, else a system Chromium or Chrome, else the
 * Chromium shipped inside the @sparticuz/chromium npm package (so a fresh install needs no
 * browser download).
 */

const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

const isExecutable = (path: string) => access(path, constants.X_OK).then(() => true, () => false);

export type ChromiumBinary = { path: string; source: 'CHROME_PATH' | 'system' | '@sparticuz/chromium' };

export async function findChromium(chromePath: string | undefined): Promise<ChromiumBinary> {
  if (chromePath) {
    if (!(await isExecutable(chromePath))) throw new Error(`CHROME_PATH ${chromePath} is not an executable file`);
    return { path: chromePath, source: 'CHROME_PATH' };
  }
  for (const path of SYSTEM_BROWSERS) {
    if (await isExecutable(path)) return { path, source: 'system' };
  }
  // Unpacks its Chromium into the temporary directory on first use.
  const { default: packaged } = await import('@sparticuz/chromium');
  return { path: await packaged.executablePath(), source: '@sparticuz/chromium' };
}

/**
 * Flags for a headless browser on a server. Background networking and component updates are
 * off (they call home, and on closed networks fail noisily); the sandbox is off because the
 * service may run as root in a container.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  // WebRTC's UDP would go around the egress guard's proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-domain-reliability',
  '--disable-breakpad',
  '--mute-audio',
  '--use-gl=angle',
  '--use-angle=swiftshader',
];
