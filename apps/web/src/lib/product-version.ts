// The running server's version as index.html carries it (a meta tag the server writes; decision 059), for the footer.
// Empty under Vite's dev server, which serves index.html itself.
export function productVersionText(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="prison-version"]')?.content.trim() ?? '';
}
