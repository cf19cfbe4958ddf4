import type { Texts } from '../texts.js';
import type { goods as zh } from '../zh/goods.js';

/** The server's English messages: goods (the keys of zh/goods.ts). */
export const goods = {
  noPermission: 'You may not insert goods',
  loopback: 'Pages on a loopback address cannot be read: {{address}}',
  private: 'Pages on a private network address cannot be read: {{address}}',
  linkLocal: 'Pages on a link-local address cannot be read: {{address}}',
  special: 'Pages on a special-purpose address cannot be read: {{address}}',
  onlyHttp: 'Only addresses starting with http:// or https:// can be read',
  hostNotFound: 'The host {{host}} could not be found',
  timeout: 'The product page did not answer within {{seconds}} seconds; please fill in the details by hand',
  tooManyRedirects: 'The product page redirected too many times; please fill in the details by hand',
  unreachable: 'The product page could not be opened; please fill in the details by hand',
  badStatus: 'The product page answered {{status}}; please fill in the details by hand',
  notHtml: 'This address is not a web page ({{type}}); please fill in the details by hand',
  nothingFound: 'No product details were found on this page; please fill them in by hand',
} as const satisfies Texts<typeof zh>;
