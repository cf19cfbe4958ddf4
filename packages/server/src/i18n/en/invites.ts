import type { Texts } from '../texts.js';
import type { invites as zh } from '../zh/invites.js';

/** The server's English messages: invites (the keys of zh/invites.ts). */
export const invites = {
  noSuchInvitation: 'No such invitation',
  youNotInviteNewcomers: 'You may not invite newcomers into the group "{{name}}"',
  invitationLinkNotValid: 'The invitation link is not valid or has expired: ask for a new one',
  siteInvitationOnlyRegister: 'This site is by invitation only: register through an invitation link',
} as const satisfies Texts<typeof zh>;
