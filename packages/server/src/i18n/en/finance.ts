import type { Texts } from '../texts.js';
import type { finance as zh } from '../zh/finance.js';

/** The server's English messages: finance (the keys of zh/finance.ts). */
export const finance = {
  startDateFormat: 'The start date must be a date such as 2026-11-01 or an ISO time',
  endDateFormat: 'The end date must be a date such as 2026-11-01 or an ISO time',
  endDateCannotBefore: 'The end date cannot be before the start date',
  rangeSpanMostYears: 'The range may span at most {{chartMaxYears}} years',
  giveAmount: 'Please give the amount',
  chooseAddSubtract: 'Please choose to add or to subtract',
  giveAmountAddSubtract: 'Please give an amount to add or subtract, or the wallet status',
  noSuchUser: 'No such user',
  addedAdministrator: 'Added by an administrator',
  subtractedAdministrator: 'Subtracted by an administrator',
  startTimeFormat: 'The start time must be a date such as 2026-11-01 or an ISO time',
  endTimeFormat: 'The end time must be a date such as 2026-11-01 or an ISO time',
} as const satisfies Texts<typeof zh>;
