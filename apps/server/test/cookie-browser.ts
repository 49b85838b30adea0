// A browser reduced to what a login flow needs, over real HTTP: a cookie jar per host (paths and expiry honoured
// enough for these flows), redirects followed by hand so each hop is seen, GET and form POST.

export interface Hop {
  url: URL;
  status: number;
  location?: URL;
}

export class CookieBrowser {
  private jar = new Map<string, Map<string, string>>();

  /** The cookie of that name this browser holds for `origin`, if any. */
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).host)?.get(name);
  }

  private cookieHeader(url: URL): string | undefined {
    const cookies = this.jar.get(url.host);
    if (!cookies || cookies.size === 0) return undefined;
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keepCookies(url: URL, response: Response): void {
    let cookies = this.jar.get(url.host);
    if (!cookies) this.jar.set(url.host, (cookies = new Map()));
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=');
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  /** One request, no redirect followed. */
  async request(url: URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ response: Response; hop: Hop }> {
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.keepCookies(url, response);
    const location = response.headers.get('location');
    return { response, hop: { url, status: response.status, location: location ? new URL(location, url) : undefined } };
  }

  /**
   * Follows redirects from `url` until a page answers, or until the next hop would match `stopAt` (that hop is not
   * requested). Answers every hop made and the page's text, if one answered.
   */
  async navigate(
    url: URL,
    options: { form?: Record<string, string>; stopAt?: (next: URL) => boolean } = {},
  ): Promise<{ hops: Hop[]; stoppedAt?: URL; page?: { url: URL; status: number; text: string } }> {
    const hops: Hop[] = [];
    let next: URL | undefined = url;
    let form = options.form;
    for (let redirects = 0; next && redirects < 20; redirects++) {
      const { response, hop } = await this.request(next, { form });
      form = undefined;
      hops.push(hop);
      if (!hop.location) return { hops, page: { url: next, status: response.status, text: await response.text() } };
      await response.body?.cancel();
      if (options.stopAt?.(hop.location)) return { hops, stoppedAt: hop.location };
      next = hop.location;
    }
    throw new Error(`too many redirects from ${url.href}`);
  }
}
