import { access, constants } from 'node:fs/promises';
import type { Browser, BrowserContext } from 'puppeteer-core';
import { chromiumFlags, findChromium } from './chromium.ts';

export type BrowserOptions = {
  /** CHROME_PATH; unset: found automatically. */
  chromePath?: string | undefined;
  /**
   * Chromium's sandbox off even when not root (SCAN_CHROMIUM_SANDBOX=0): for containers that
   * may not create the user namespaces it is built on (Docker's default seccomp profile, hosts
   * that restrict unprivileged user namespaces). As root it is always off: Chromium refuses it.
   */
  noSandbox?: boolean;
  /** Extra Chromium flags (tests use them for fixture certificates and such). */
  extraArgs?: string[];
  /** Accept any TLS certificate (tests with self-signed fixture sites only). */
  acceptInsecureCerts?: boolean;
  /**
   * How long the browser stays open after the last scan using it ended, for the next scan of a
   * batch (default BROWSER_IDLE_CLOSE_MS); 0 closes it as soon as the last scan ends.
   */
  idleCloseMs?: number;
};

/** Chromium could not be launched (no binary, a binary that does not run, a sandbox it cannot set up). */
export class BrowserUnavailable extends Error {
  override readonly name = 'BrowserUnavailable';
}

/** The default of `idleCloseMs`: a queue of scans, or the scans an operator starts one after another, share one launch. */
export const BROWSER_IDLE_CLOSE_MS = 10_000;

/**
 * One Chromium for the whole service, launched when a scan needs it and closed when no scan has
 * used it for `idleCloseMs`: a service that is not scanning runs no browser (Chromium's processes
 * hold a few hundred MB). Scans running at the same time share it, and a scan starting while it
 * waits to be closed keeps it; one that starts after it closed launches it again, as does one
 * after it died. Each scan gets a fresh incognito context (no cookies or storage from other
 * scans), closed when the scan ends.
 */
export type SharedBrowser = {
  withContext<T>(proxyServer: string, work: (context: BrowserContext) => Promise<T>): Promise<T>;
  /**
   * Checks that the browser starts (readiness checks): launches it, unless it runs or has started
   * before in this process (its binary still there). A browser launched only for this closes
   * again after `idleCloseMs`, as after a scan.
   */
  warmUp(): Promise<void>;
  /** Whether a browser runs (or is being launched) now. */
  isRunning(): boolean;
  close(): Promise<void>;
};

export function createSharedBrowser(options: BrowserOptions = {}): SharedBrowser {
  const idleCloseMs = options.idleCloseMs ?? BROWSER_IDLE_CLOSE_MS;
  let launching: Promise<Browser> | undefined;
  /** Scans holding a context (or about to): while there are any, the browser stays open. */
  let users = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  /** The binary of the last launch that succeeded; unset again by a launch that fails. */
  let startedBinary: string | undefined;

  const launch = async (): Promise<Browser> => {
    try {
      const binary = await findChromium(options.chromePath);
      // Loaded with the first launch: a service that never scans does not pay for it at start.
      const { default: puppeteer } = await import('puppeteer-core');
      const browser = await puppeteer.launch({
        executablePath: binary.path,
        headless: 'shell',
        args: [...chromiumFlags({ noSandbox: options.noSandbox }), ...(options.extraArgs ?? [])],
        acceptInsecureCerts: options.acceptInsecureCerts ?? false,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      startedBinary = binary.path;
      return browser;
    } catch (error) {
      throw new BrowserUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
    }
  };

  const browser = (): Promise<Browser> => {
    if (!launching) {
      const started = launch();
      launching = started;
      started.then(
        (launched) => {
          // A browser that died (or was closed) is launched again by the next scan; a newer one stays.
          launched.once('disconnected', () => {
            if (launching === started) launching = undefined;
          });
        },
        () => {
          startedBinary = undefined;
          if (launching === started) launching = undefined;
        },
      );
    }
    return launching;
  };

  const stopIdleTimer = () => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
  };

  /** Closes the browser now, if one runs (or is being launched); a launch that fails is nothing to close. */
  const closeBrowser = async () => {
    stopIdleTimer();
    const current = launching;
    launching = undefined;
    if (current) await (await current.catch(() => undefined))?.close();
  };

  /** When nothing uses the browser any more: closed after `idleCloseMs`, unless a scan comes first. */
  const whenIdle = () => {
    if (users > 0 || !launching) return;
    stopIdleTimer();
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (users === 0) void closeBrowser().catch(() => {});
    }, idleCloseMs);
    // The timer alone does not keep the process alive; the browser's own connection does until it closes.
    idleTimer.unref();
  };

  return {
    async withContext(proxyServer, work) {
      users++;
      stopIdleTimer();
      try {
        const context = await (await browser()).createBrowserContext({
          proxyServer,
          // Chromium sends loopback addresses around a proxy unless told not to; every request
          // must pass the egress guard.
          proxyBypassList: ['<-loopback>'],
        });
        try {
          return await work(context);
        } finally {
          await context.close().catch(() => {});
        }
      } finally {
        users--;
        whenIdle();
      }
    },
    async warmUp() {
      if (launching) {
        await launching;
        return;
      }
      if (startedBinary && (await access(startedBinary, constants.X_OK).then(() => true, () => false))) return;
      await browser();
      whenIdle();
    },
    isRunning: () => launching !== undefined,
    close: closeBrowser,
  };
}
