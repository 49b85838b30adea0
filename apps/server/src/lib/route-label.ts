// The route a request is counted and logged under: its template (`/api/v1/prisoners/:id`), never the raw URL, so
// metric labels stay bounded and no query string (a device secret) reaches the log.

/** The label of a request no route matched (the web app's pages, scanners): one series, not one per path. */
export const UNMATCHED_ROUTE = 'unmatched';

export function routeLabel(request: { routeOptions: { url?: string } }): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
