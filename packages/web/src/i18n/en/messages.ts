import type { Catalogue } from '../catalogue';
import type { messages as zh } from '../zh/messages';

/** English messages: messages (the same keys as zh/messages.ts). */
export const messages: Catalogue<typeof zh> = {
  message: {
    title: 'Message',
    heading: 'Message centre',
    categories: 'Message categories',
    index: 'Private messages',
    account: 'Account messages',
    financial: 'Financial notices',
    thread: 'Thread notices',
    empty: 'No messages yet',
    dialogs: {
      empty: 'No private messages yet. Press “Message” on a member’s card or page to start a chat.',
      imageMessage: '[Image]',
      delete: 'Delete the conversation with {{name}}',
      confirmDelete: 'Delete the conversation with {{name}}? Only your copy goes; they keep theirs.',
      deleted: 'Conversation deleted',
    },
    chat: {
      heading: 'Private messages with {{name}}',
      choose: 'Choose a conversation on the left to start writing',
      back: 'Back to private messages',
      history: 'Conversation',
      older: 'Show earlier messages',
      start: 'No earlier messages',
      empty: 'No messages yet: say hello',
      read: 'Read',
      unread: 'Unread',
      pending: 'Under review',
      pendingHint: 'An administrator reviews this message first; they see it once it is approved',
      image: 'Image',
      imageButton: 'Image',
      sendImage: 'Send an image',
      imageType: 'Only JPG, PNG, GIF or WebP images can be sent',
      input: 'Message',
      placeholder: 'Write something…',
      hint: 'Enter sends, Shift+Enter starts a new line',
      send: 'Send',
      userMissing: 'This member does not exist',
      self: 'You cannot send yourself a message',
      noPermission: 'Your user group may not send private messages',
    },
    notices: {
      site: 'Site notice',
      new: 'New',
      delete: 'Delete this notice',
      deleted: 'Notice deleted',
      empty: {
        account: 'No account messages yet',
        financial: 'No financial notices yet',
        thread: 'No thread notices yet',
      },
    },
  },
};
