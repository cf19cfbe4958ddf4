// Zod-free on purpose: list cards on the home page import these, and the first load carries no schema code.

/** A thread's position as thread.list and thread.detail answer it (null when it has none). */
export interface ThreadPosition {
  longitude: number;
  latitude: number;
  /** "" when none was given. */
  address: string;
  location: string;
}

/** The OpenStreetMap page showing a position (a marker, zoom 16). */
export function openStreetMapLink(p: Pick<ThreadPosition, 'latitude' | 'longitude'>): string {
  const lat = String(p.latitude);
  const lon = String(p.longitude);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
}
