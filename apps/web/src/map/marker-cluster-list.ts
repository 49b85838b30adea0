// The list of markers drawn on top of each other, opened by a click among them: each a button that
// opens that marker's popup, so a crowded yard can be read one prisoner at a time.
import L from 'leaflet';
import type { MarkerLevel } from './marker-style';
import type { DrawnMarker } from './marker-cluster';

const LEVEL_WORDS: Record<MarkerLevel, string> = {
  critical: 'Critical',
  warning: 'Warning',
  informational: 'Informational',
  none: 'No open alert',
  offline: 'Offline',
};

/** Opens the list at `at`; choosing one calls `open` with its id. The first button takes the focus (keyboard). */
export function openClusterList(map: L.Map, at: L.LatLng, members: readonly DrawnMarker[], open: (id: string) => void): L.Popup {
  const content = document.createElement('div');
  content.dataset.testid = 'marker-cluster';
  const title = content.appendChild(document.createElement('p'));
  title.textContent = `${members.length} here`;
  title.className = 'font-semibold';
  const list = content.appendChild(document.createElement('ul'));
  list.className = 'max-h-60 overflow-y-auto';
  for (const member of members) {
    const button = list.appendChild(document.createElement('li')).appendChild(document.createElement('button'));
    button.type = 'button';
    button.className = 'w-full rounded px-1 py-0.5 text-left hover:bg-slate-100 focus:bg-slate-100';
    button.dataset.testid = 'marker-cluster-item';
    button.dataset.level = member.level;
    button.textContent = `${member.name} · ${LEVEL_WORDS[member.level]}`;
    button.addEventListener('click', () => open(member.id));
  }
  const popup = L.popup({ autoPan: false, minWidth: 200, maxWidth: 320 }).setLatLng(at).setContent(content).openOn(map);
  // Leaflet's own Escape works only while the map itself has the focus; here the focus is on an entry, so the list
  // closes itself and hands the focus back to the map (found by crowd-list.spec.ts).
  content.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    map.closePopup(popup);
    map.getContainer().focus();
  });
  content.querySelector('button')?.focus();
  return popup;
}
