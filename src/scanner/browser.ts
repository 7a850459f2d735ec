import type { Browser, BrowserContext } from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium } from './chromium.ts';

export type BrowserOptions = {
  /** CHROME_PATH; unset: found automatically. */
  chromePath?: string | undefined;
  /** Extra Chromium flags (tests use them for fixture certificates and such). */
  extraArgs?: string[];
  /** Accept any TLS certificate (tests with self-signed fixture sites only). */
  acceptInsecureCerts?: boolean;
};

/**
 * One Chromium for the whole service, launched on first use and kept warm; launched again if
 * it dies. Each scan gets a fresh incognito context (no cookies or storage from other scans),
 * closed when the scan ends.
 */
export type SharedBrowser = {
  withContext<T>(proxyServer: string, work: (context: BrowserContext) => Promise<T>): Promise<T>;
  /** Launches the browser now (for readiness checks and warm starts). */
  warmUp(): Promise<void>;
  close(): Promise<void>;
};

export function createSharedBrowser(options: BrowserOptions = {}): SharedBrowser {
  let launching: Promise<Browser> | undefined;

  const launch = async (): Promise<Browser> => {
    const binary = await findChromium(options.chromePath);
    // Loaded with the first launch: a service that never scans does not pay for it at start.
    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.launch({
      executablePath: binary.path,
      headless: 'shell',
      args: [...CHROMIUM_FLAGS, ...(options.extraArgs ?? [])],
      acceptInsecureCerts: options.acceptInsecureCerts ?? false,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    browser.once('disconnected', () => {
      launching = undefined;
    });
    return browser;
  };

  const browser = (): Promise<Browser> => {
    launching ??= launch().catch((error: unknown) => {
      launching = undefined;
      throw error;
    });
    return launching;
  };

  return {
    async withContext(proxyServer, work) {
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
    },
    async warmUp() {
      await browser();
    },
    async close() {
      const current = launching;
      launching = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  };
}
