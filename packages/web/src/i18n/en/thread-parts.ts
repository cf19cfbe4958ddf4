import type { Catalogue } from '../catalogue';
import type { threadParts as zh } from '../zh/thread-parts';

/** English messages: thread parts (the same keys as zh/thread-parts.ts). */
export const threadParts: Catalogue<typeof zh> = {
  threadParts: {
    title: 'Thread parts',
    add: 'Insert',
    remove: 'Remove',
    notReady: 'Please complete: {{parts}}',
    names: {
      101: 'Images',
      102: 'Audio',
      103: 'Video',
      104: 'Goods',
      106: 'Red packet',
      107: 'Bounty',
      108: 'Files',
      109: 'Vote',
    },
    goods: {
      link: 'Product link',
      name: 'Product name',
      price: 'Price',
      picture: 'Picture address',
      open: 'View the product',
      fetch: 'Fetch details',
      linkFirst: 'Please enter the product link first',
      byHand: 'You can type the product details below.',
    },
    position: {
      legend: 'Position',
      place: 'Place name',
      placePlaceholder: "e.g. People's Square",
      address: 'Address (optional)',
      latitude: 'Latitude',
      longitude: 'Longitude',
      useMine: 'Use my location',
      locating: 'Finding your location…',
      noGeolocation: 'This browser cannot tell your location; please type it',
      denied: 'No location ({{reason}}); please type it',
      clear: 'Clear position',
      incomplete: 'A position needs a place name, a latitude and a longitude',
      map: 'View {{place}} on OpenStreetMap',
    },
  },
};
