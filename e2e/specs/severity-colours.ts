// What the severity specs read of a screen's colours (decision 044): only Critical and Warning may look red.
import type { Locator } from '@playwright/test';

/** Red (Tailwind red-500 to red-900, or any strongly red colour) in a computed colour such as "rgb(185, 28, 28)". */
export function isRed(colour: string): boolean {
  const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return r > 140 && g < 100 && b < 100;
}

/** Text, background and left-border colours of every element the locator finds. */
export const colours = (locator: Locator) =>
  locator.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const style = getComputedStyle(element);
      return [style.color, style.backgroundColor, style.borderLeftColor];
    }),
  );
