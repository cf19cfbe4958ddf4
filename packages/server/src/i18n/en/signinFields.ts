import type { Texts } from '../texts.js';
import type { signinFields as zh } from '../zh/signinFields.js';

/** The server's English messages: signinFields (the keys of zh/signinFields.ts). */
export const signinFields = {
  noSuchSignField: 'No such sign-in field',
  radioCheckboxFieldNeeds: 'A radio or checkbox field needs options',
  noSuchUser: 'No such user',
  answeredTwice: '"{{name}}" is answered twice',
  answer: 'The answer to "{{name}}" {{en}}',
  requiredFieldNotAnswered: 'The required field "{{name}}" is not answered',
  noSuchAnswer: 'No such answer',
  answerReplacedNewerOne: 'The answer was replaced by a newer one',
} as const satisfies Texts<typeof zh>;
