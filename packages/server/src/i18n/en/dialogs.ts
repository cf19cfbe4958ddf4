import type { Texts } from '../texts.js';
import type { dialogs as zh } from '../zh/dialogs.js';

/** The server's English messages: dialogs (the keys of zh/dialogs.ts). */
export const dialogs = {
  noSuchConversation: 'No such conversation',
  conversationNotYours: 'This conversation is not yours',
  youCannotSendYourself: 'You cannot send yourself a message',
  imageNotFound: 'This image was not found',
  imageAddressNotValid: 'The image address is not valid',
  recipientDoesNotExist: 'The recipient does not exist',
} as const satisfies Texts<typeof zh>;
