import { existsSync } from 'node:fs';
import { access, constants, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  return { path: await unpackedChromium(), source: '@sparticuz/chromium' };
}

/** A lock older than this is taken to be left behind, whoever holds it. */
const STALE_UNPACK_MS = 120_000;

/**
 * The packaged Chromium, unpacked into the temporary directory on first use. The package checks
 * only whether its file exists, so a second process (another scan worker, a test run beside this
 * one) would start a binary still being written (`spawn ETXTBSY`): one process at a time unpacks,
 * under a lock file beside it that names its process, and the others wait for it. A lock whose
 * process is gone is taken over at once.
 */
async function unpackedChromium(): Promise<string> {
  const { default: packaged } = await import('@sparticuz/chromium');
  const lock = join(tmpdir(), 'chromium.unpacking');
  for (;;) {
    // Unpacked, and nobody unpacking: nothing to wait for.
    if (existsSync(join(tmpdir(), 'chromium')) && !existsSync(lock)) return packaged.executablePath();
    const held = await open(lock, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      return undefined;
    });
    if (held) {
      try {
        await held.write(String(process.pid));
        return await packaged.executablePath();
      } finally {
        await held.close();
        await rm(lock, { force: true });
      }
    }
    if (await isLeftBehind(lock)) await rm(lock, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether the lock's process is gone (or the lock is older than STALE_UNPACK_MS). */
async function isLeftBehind(lock: string): Promise<boolean> {
  const [found, owner] = await Promise.all([stat(lock).catch(() => undefined), readFile(lock, 'utf8').catch(() => '')]);
  if (!found) return false;
  if (Date.now() - found.mtimeMs > STALE_UNPACK_MS) return true;
  const pid = Number(owner);
  // Written just after the lock was made: an empty one is being written now.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Flags for a headless browser on a server. Background networking and component updates are
 * off (they call home, and on closed networks fail noisily). Chromium's sandbox stays on unless
 * this process runs as root, where Chromium refuses to start with it, or `noSandbox` asks (a
 * container whose seccomp profile refuses the user namespaces the sandbox is built on, as
 * Docker's default does).
 */
export function chromiumFlags({ noSandbox = false }: { noSandbox?: boolean } = {}): string[] {
  return [
    ...(noSandbox || process.getuid?.() === 0 ? ['--no-sandbox'] : []),
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
}

/** The flags for this process (the sandbox on unless it runs as root). */
export const CHROMIUM_FLAGS = chromiumFlags();
