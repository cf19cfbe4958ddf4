import type { Texts } from '../texts.js';
import type { wallet as zh } from '../zh/wallet.js';

/** The server's English messages: wallet (the keys of zh/wallet.ts). */
export const wallet = {
  thereNotEnoughMoney: 'There is not enough money in the wallet',
  walletFrozen: 'This wallet is frozen',
  notValidTime: '{{field}} is not a valid time',
  loginPasswordNotCorrect: 'The login password is not correct',
  setPayPasswordFirst: 'Set a pay password first',
  walletFrozen2: 'This wallet is frozen',
  enterPayPassword: 'Enter your pay password',
  wrongPayPasswordLeft: 'Wrong pay password: {{left}} {{value}} left',
  tooManyWrongPay: 'Too many wrong pay passwords: try again in {{minutes}} {{value}}',
  openingBalanceImported: "Opening balance (imported: the old site's ledger did not add up to its balance)",
} as const satisfies Texts<typeof zh>;
