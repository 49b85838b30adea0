// How every tool here starts Debian's Chromium (e2e, `npm run screens`, bench/map, ensure-chromium): one path and one
// set of flags. The background-networking flags keep it from reaching out: this machine's network is closed.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Playwright's `launchOptions` / `chromium.launch()` options. */
export const chromiumLaunchOptions = () => ({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
