// Serves the built web app and answers client-side routes with index.html, which names the running version.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PRODUCT_ROOT } from '../lib/product-root';
import { productVersion, versionText } from '../lib/version';

export const defaultWebDist = path.join(PRODUCT_ROOT, 'apps/web/dist');

const escapeAttribute = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * index.html with the server's version in a meta tag, which the footer shows (decision 059): the page always names the
 * build that serves it, with no request of its own. Read on every page load, so a rebuild is served at once.
 */
async function indexWithVersion(distDir: string): Promise<string> {
  const html = await readFile(path.join(distDir, 'index.html'), 'utf8');
  const meta = `<meta name="prison-version" content="${escapeAttribute(versionText(productVersion()))}" />`;
  return html.replace('</head>', `    ${meta}\n  </head>`);
}

function isApiPath(url: string) {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/socket.io/');
}

export async function registerWeb(app: FastifyInstance, distDir: string) {
  const hasWeb = existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    // The built app's files are public (the login screen is one of them). Declared on their routes, which
    // @fastify/static marks with the folder they serve, so the default-deny auth hook sees it; the API documentation's
    // own static files (another folder) stay behind a session.
    const servedFrom = (config: unknown) => (config as { rootPath?: string } | undefined)?.rootPath;
    app.addHook('onRoute', (route) => {
      const folder = servedFrom(route.config);
      if (folder && path.resolve(folder) === path.resolve(distDir)) route.config = { ...route.config, public: true };
    });
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      maxAge: '1h',
      immutable: false,
      // A source map left in the folder (a development build) would publish the app's source.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
    });
  } else {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` to serve the UI');
  }
  app.setNotFoundHandler(async (request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && hasWeb && !isApiPath(request.url)) {
      // Hashed assets live under /assets; anything else is a client route.
      if (request.url.startsWith('/assets/')) return reply.status(404).send({ message: 'Not found' });
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(await indexWithVersion(distDir));
    }
    return reply.status(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
}
