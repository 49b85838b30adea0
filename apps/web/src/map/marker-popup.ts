// The popup of one marker: "Name: " and the name, the detail line (decision 025), and a slot the page renders its
// live part into (React, through a portal). It carries the marker's level for tests and styles, and follows the
// marker's glide. Only one is open at a time.
import L from 'leaflet';
import type { MarkerLevel } from './marker-style';

/** The popup of one marker: the layer fills the name and detail; `extra` is for the page (React renders into it). */
export interface MarkerPopupSlot {
  id: string;
  extra: HTMLElement;
}

export class MarkerPopup {
  private popup: L.Popup | null = null;
  private content: HTMLElement | null = null;
  /** The marker whose popup is open, if any. */
  id: string | null = null;
  /** Told when a marker's popup opens (with the slot for the page's part) and when it closes (null). */
  onChange: ((slot: MarkerPopupSlot | null) => void) | null = null;

  get isOpen(): boolean {
    return this.popup !== null;
  }

  /** Opens the marker's popup at `at` (its drawn position), closing any other first. */
  open(
    map: L.Map,
    id: string,
    marker: { name: string; detail: string },
    level: MarkerLevel,
    at: L.LatLng,
    offsetY: number,
  ): void {
    this.close(map);
    const content = document.createElement('div');
    content.dataset.testid = 'marker-popup';
    content.dataset.level = level;
    const name = content.appendChild(document.createElement('div'));
    name.textContent = `Name: ${marker.name}`;
    if (marker.detail) {
      const detail = content.appendChild(document.createElement('div'));
      detail.textContent = marker.detail;
      detail.dataset.testid = 'marker-popup-detail';
    }
    const extra = content.appendChild(document.createElement('section'));
    this.id = id;
    this.content = content;
    const popup = L.popup({ offset: [0, -offsetY], autoPan: false, minWidth: 220, maxWidth: 320 })
      .setLatLng(at)
      .setContent(content);
    this.popup = popup;
    popup.on('remove', () => {
      // Only this popup's own closing: a popup replaced by another has already been forgotten.
      if (this.popup !== popup) return;
      this.popup = null;
      this.id = null;
      this.content = null;
      this.onChange?.(null);
    });
    popup.openOn(map);
    this.onChange?.({ id, extra });
  }

  close(map: L.Map | undefined): void {
    const popup = this.popup;
    this.popup = null;
    this.id = null;
    this.content = null;
    if (popup && map) map.closePopup(popup);
    if (popup) this.onChange?.(null);
  }

  /** The open popup's level, when it is this marker's. */
  showLevel(id: string, level: MarkerLevel): void {
    if (this.id === id && this.content) this.content.dataset.level = level;
  }

  /** Keeps the popup on its marker while it glides. */
  follow(at: L.LatLng): void {
    this.popup?.setLatLng(at);
  }

  /** Re-measures the popup after its content changed size. */
  update(): void {
    this.popup?.update();
  }
}
