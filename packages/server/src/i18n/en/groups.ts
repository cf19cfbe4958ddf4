import type { Texts } from '../texts.js';
import type { groups as zh } from '../zh/groups.js';

/** The server's English messages: groups (the keys of zh/groups.ts). */
export const groups = {
  unknownPermission: 'Unknown permission "{{raw}}"',
  administratorGroupHoldsEvery: 'The administrator group holds every permission',
  noSuchUserGroup: 'No such user group',
  userGroupNamedExists: 'A user group named "{{name}}" exists',
  userGroupAppearsTwice: 'A user group appears twice',
  noSuchUserGroup2: 'No such user group',
  typeSystemPresetGroup: 'The type of a system or preset group cannot be changed',
  administratorGroupUndeletable: 'The administrator group cannot be deleted',
  guestGroupUndeletable: 'The guest group cannot be deleted',
  defaultGroupUndeletable: 'The default group cannot be deleted',
  userGroupDoesNot: 'User group {{id}} does not exist',
  thereNoDefaultGroup: 'There is no default group',
} as const satisfies Texts<typeof zh>;
