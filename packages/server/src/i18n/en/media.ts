import type { Texts } from '../texts.js';
import type { media as zh } from '../zh/media.js';

/** The server's English messages: media (the keys of zh/media.ts). */
export const media = {
  file: 'File',
  audio: 'Audio',
  video: 'Video',
  chooseFileUpload: 'Choose a file to upload',
  fileEmpty: 'The file is empty',
  extNotAllowed: '.{{ext}} files are not accepted; you may upload: {{allowed}}',
  contentMismatch: 'The file does not hold what its extension .{{ext}} says (it holds {{actual}})',
  mediaNotAllowed: 'This {{label}} format is not accepted; you may upload: {{allowed}}',
  tooManyFiles: 'At most {{max}} files',
  notYourUpload: 'Attachment {{id}} does not exist, or is not a {{label}} of yours that can be used',
  attachmentNotFound: 'Attachment not found',
  noDownload: 'You may not download attachments',
  noViewVideo: 'You may not view videos',
  buyThreadFirst: 'Buy the thread first',
  buyFilesFirst: 'Buy the files first',
  filesFree: "This thread's files are free",
  youCannotBuyOwnFiles: 'You cannot buy your own files',
  badRange: 'The requested range is not valid',
  filesOf: 'Files of',
} as const satisfies Texts<typeof zh>;
