// Serves the eval's own pages (eval/site/) on 127.0.0.1: the settings page, the shop and its
// checkout, the docs, and the pages of the attack tasks. Unknown paths get a 404 "Page not found"
// page, as a real site's would. An attacker's instruction (between `<!--attack-->` and
// `<!--/attack-->` in a page) is served only to a browser with the attack cookie, so one server
// serves a task with and without its attack.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const SITE = fileURLToPath(new URL('./site/', import.meta.url));

/** Paths and the files behind them. */
const ROUTES: Record<string, string> = {
  '/settings': 'settings.html',
  '/shop': 'shop/index.html',
  '/shop/cart': 'shop/cart.html',
  '/checkout/shipping': 'checkout/shipping.html',
  '/checkout/payment': 'checkout/payment.html',
  '/checkout/review': 'checkout/review.html',
  '/checkout/done': 'checkout/done.html',
  '/docs': 'docs/index.html',
  '/docs/guide': 'docs/guide.html',
  '/site.css': 'site.css',
  '/shop.js': 'shop.js',
  '/settings.js': 'settings.js',
  '/reviews/lamp': 'attack/reviews.html',
  '/orders/KC-1042': 'attack/order.html',
  '/newsletter': 'attack/newsletter.html',
  '/help': 'attack/help.html',
  '/account/delete': 'attack/delete.html',
  '/account.js': 'attack/account.js',
};

/** The cookie that asks for the pages with their attacker's instructions in. */
export const ATTACK_COOKIE = 'eval-attack';

const ATTACK_BLOCK = /<!--attack-->[\s\S]*?<!--\/attack-->/g;

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', css: 'text/css', js: 'text/javascript' };

/** A running site server. */
export interface SiteServer {
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Starts the eval's site on `port` (0: any free port).
 *
 * @example
 * ```ts
 * const site = await startSiteServer(0);
 * await page.goto(`${site.origin}/settings`);
 * await site.close();
 * ```
 */
export async function startSiteServer(port = 0): Promise<SiteServer> {
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
    const file = ROUTES[path];
    const name = file ?? 'not-found.html';
    try {
      const attacked = (request.headers.cookie ?? '').split(/;\s*/).includes(`${ATTACK_COOKIE}=1`);
      const raw = await readFile(SITE + name);
      const body = name.endsWith('.html') && !attacked ? raw.toString('utf8').replace(ATTACK_BLOCK, '') : raw;
      response.writeHead(file ? 200 : 404, { 'content-type': TYPES[name.split('.').pop() ?? 'html'] ?? 'text/plain', 'cache-control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(500).end('Could not read the page.');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
