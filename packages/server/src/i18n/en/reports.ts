import type { Texts } from '../texts.js';
import type { reports as zh } from '../zh/reports.js';

/** The server's English messages: reports (the keys of zh/reports.ts). */
export const reports = {
  sayWhichUser: 'Say which user you report',
  sayWhichThread: 'Say which thread you report',
  sayWhichReply: 'Say which reply you report',
  noSuchUser: 'No such user',
  youAlreadyReportedAdministrator: 'You have already reported this; an administrator will look at it',
  cannotReportYourself: 'You cannot report yourself',
  cannotReportYourPost: 'You cannot report what you posted',
} as const satisfies Texts<typeof zh>;
