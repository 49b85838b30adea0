// Some caches live at module level (list totals and page anchors, session lookups), outside any app. In cluster mode
// (decision 036) their invalidation must reach the other processes too: the cluster plugin installs the announcer,
// and without a cluster announcing does nothing.
export type CacheKind = 'prisoners' | 'sessions';

let announcer: ((kind: CacheKind) => void) | null = null;

export function setCacheAnnouncer(next: (kind: CacheKind) => void): void {
  announcer = next;
}

/** Removes `which` if it is still the one installed (another app of the same process may have installed its own). */
export function clearCacheAnnouncer(which: (kind: CacheKind) => void): void {
  if (announcer === which) announcer = null;
}

/** Tells the other processes of a cluster that this process has just invalidated a cache of this kind. */
export function announceCacheChange(kind: CacheKind): void {
  announcer?.(kind);
}
