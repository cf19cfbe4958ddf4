import { Code } from '@luntan/shared';
import type { ApiResult } from './dispatcher';

/**
 * The shared error handler's reactions to codes (the family's web client):
 * -3001 clears the login and goes to /user/login; -4004 goes to /404; -3003 (under review), -4007 and -4009 go to
 * /user/status;
 * -3007 goes to /user/supplementary; -3006 (the site takes a joining fee the member has not paid) goes to
 * /forum/partner-invite; -8001 (the member's group must bind a phone to post) goes to /user/bind-phone. Other codes are left to the caller (usually a toast with the message).
 */
/** Where a member who has not paid the joining fee of a paid site pays it. */
export const PARTNER_INVITE_PATH = '/forum/partner-invite';

/** Where a member whose group must bind a phone before posting binds one (-8001). */
export const BIND_PHONE_PATH = '/user/bind-phone';

export interface ErrorReaction {
  to: string;
  clearLogin: boolean;
}

export function reactionFor(code: number): ErrorReaction | null {
  switch (code) {
    case Code.JUMP_TO_LOGIN:
      return { to: '/user/login', clearLogin: true };
    case Code.RESOURCE_NOT_FOUND:
      return { to: '/404', clearLogin: false };
    case Code.JUMP_TO_AUDIT:
    case Code.VALIDATE_REJECT:
    case Code.USER_BANNED:
      return { to: '/user/status', clearLogin: false };
    case Code.JUMP_TO_SUPPLEMENTARY:
      return { to: '/user/supplementary', clearLogin: false };
    case Code.JUMP_TO_PAY_SITE:
      return { to: PARTNER_INVITE_PATH, clearLogin: false };
    case Code.NEED_BIND_PHONE:
      return { to: BIND_PHONE_PATH, clearLogin: false };
    default:
      return null;
  }
}

export interface ErrorHandlerDeps {
  navigate: (to: string) => void;
  /** Forgets the session on this device (token in local storage, cached viewer). */
  clearLogin: () => Promise<void>;
  /** Remembers where the visitor was, before going to the login page. */
  rememberLocation: () => void;
  currentPath: () => string;
}

export function createErrorHandler(deps: ErrorHandlerDeps): (result: ApiResult<unknown>) => void {
  return (result) => {
    const reaction = reactionFor(result.Code);
    if (!reaction) return;
    const go = (): void => {
      if (deps.currentPath() !== reaction.to) deps.navigate(reaction.to);
    };
    if (reaction.clearLogin) {
      deps.rememberLocation();
      // Navigate once the viewer is known to be a guest, so the login page does not bounce back.
      void deps.clearLogin().then(go, go);
    } else {
      go();
    }
  };
}
