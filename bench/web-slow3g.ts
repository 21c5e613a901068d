/** bench/web.ts's payment form on an emulated slow 3G connection, through the DevTools protocol. */
import type { Browser } from 'playwright-core';
import { RequestsFailed } from './lib.ts';

/** Emulated slow 3G, as DevTools names it: 400 ms latency, 400 kbit/s each way. */
const SLOW_3G = {
  offline: false,
  latency: 400,
  downloadThroughput: 400_000 / 8,
  uploadThroughput: 400_000 / 8,
};

export interface Slow3gRun {
  usableMs: number;
  transferredBytes: number;
  requests: number;
  scriptEncoding: string;
}

/**
 * One load of the payment form on slow 3G. `acceptEncoding` replaces what Chromium accepts (it
 * offers brotli to 127.0.0.1 and to HTTPS sites, gzip only to other plain-HTTP ones).
 */
export async function slow3gRun(
  browser: Browser,
  appUrl: string,
  acceptEncoding?: string,
): Promise<Slow3gRun> {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    if (acceptEncoding) {
      await cdp.send('Network.setExtraHTTPHeaders', {
        headers: { 'Accept-Encoding': acceptEncoding },
      });
    }
    let transferredBytes = 0;
    let requests = 0;
    let scriptEncoding = 'none';
    /** Requests that got no answer, or an error status: the load measured then measures nothing. */
    const failed: string[] = [];
    cdp.on('Network.loadingFinished', (event) => {
      transferredBytes += event.encodedDataLength;
      requests += 1;
    });
    cdp.on('Network.loadingFailed', (event) => {
      failed.push(`${event.type ?? 'a request'} failed (${event.errorText})`);
    });
    cdp.on('Network.responseReceived', (event) => {
      const { status, url } = event.response;
      if (status >= 400) failed.push(`${url} answered ${status}`);
      if (event.type === 'Script' && event.response.url.includes('/assets/')) {
        const headers = event.response.headers;
        scriptEncoding = headers['content-encoding'] ?? headers['Content-Encoding'] ?? 'none';
      }
    });
    await page.goto(`${appUrl}/`, { waitUntil: 'commit', timeout: 60_000 });
    // Checked at every frame; the answer is the time since navigation started.
    const usable = await page.waitForFunction(
      () => {
        const phone = document.querySelector<HTMLInputElement>('input#phoneNumber');
        const submit = document.querySelector<HTMLButtonElement>('form button[type="submit"]');
        const ready = (element: HTMLInputElement | HTMLButtonElement | null) =>
          element !== null && !element.disabled && element.checkVisibility();
        return ready(phone) && ready(submit) ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const usableMs = (await usable.jsonValue()) as number;
    await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
    if (failed.length > 0) {
      throw new RequestsFailed(
        `the payment form on slow 3G${acceptEncoding ? ` (${acceptEncoding})` : ''}: ${failed.length} requests failed: ${failed.join(', ')}`,
      );
    }
    return { usableMs, transferredBytes, requests, scriptEncoding };
  } finally {
    await context.close();
  }
}
