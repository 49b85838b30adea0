// The duress alarm's words and the button's timing, without a schema: the button on every page reads them without
// loading the validation library.
/** Where the alarm says he is when his tracker has no fresh fix inside a named block area or geofence. */
export const LOCATION_NOT_KNOWN = 'location not known';

/** "Officer NAME needs assistance at PLACE" (PLACE: a block area or a geofence's name, else "location not known"). */
export const duressText = (name: string, place: string | null) => `Officer ${name} needs assistance at ${place ?? LOCATION_NOT_KNOWN}`;

/** How long a second tap arms "Need assistance" for, and how long a hold sends it (a pocket press does neither). */
export const DURESS_CONFIRM_WINDOW_MS = 4_000;
export const DURESS_HOLD_MS = 1_000;
