import type { Texts } from '../texts.js';
import type { settings as zh } from '../zh/settings.js';

/** The server's English messages: settings (the keys of zh/settings.ts). */
export const settings = {
  noSettingNamed: 'There is no setting named {{key}} ({{tag}})',
  wholeNumberFromTo: '{{key}} must be a whole number from {{min}} to {{max}}',
  wholeNumberAtLeast: '{{key}} must be a whole number, {{min}} or more',
  httpAddress: '{{key}} must be an http:// or https:// address',
  imagePathOrAddress: '{{key}} must be a path on this site or an http:// or https:// address',
  smtpUrlFormat: 'smtpUrl must be an smtp:// or smtps:// address, such as smtps://user:password@smtp.example.com:465',
  settingCannotRead: 'This setting cannot be read',
  image: 'Image',
  chooseImageUpload: 'Choose an image to upload',
  imageEmpty: 'The image is empty',
  imageMost5Mb: 'The image must be at most 5 MB',
  onlyPngJpegGif: 'Only PNG, JPEG, GIF and WebP images are accepted (and ICO for the favicon)',
  imageDataUrl: 'The image must be a data URL',
} as const satisfies Texts<typeof zh>;
