import { describe, expect, it, vi } from 'vitest';
import { envelope } from '../test/fixtures';
import { createErrorHandler, reactionFor } from './error-handler';

function setup(currentPath = '/somewhere') {
  const deps = {
    navigate: vi.fn<(to: string) => void>(),
    clearLogin: vi.fn(() => Promise.resolve()),
    rememberLocation: vi.fn(),
    currentPath: () => currentPath,
  };
  return { deps, handle: createErrorHandler(deps) };
}

describe('shared error handler', () => {
  it('maps the codes to their targets', () => {
    expect(reactionFor(-3001)).toEqual({ to: '/user/login', clearLogin: true });
    expect(reactionFor(-4004)).toEqual({ to: '/404', clearLogin: false });
    expect(reactionFor(-4007)).toEqual({ to: '/user/status', clearLogin: false });
    expect(reactionFor(-4009)).toEqual({ to: '/user/status', clearLogin: false });
    expect(reactionFor(-3007)).toEqual({ to: '/user/supplementary', clearLogin: false });
    expect(reactionFor(-3006)).toEqual({ to: '/forum/partner-invite', clearLogin: false });
    expect(reactionFor(-8001)).toEqual({ to: '/user/bind-phone', clearLogin: false });
    expect(reactionFor(-7062)).toBeNull();
    expect(reactionFor(-1)).toBeNull();
  });

  it('-3001 clears the login, remembers where the user was, then goes to /user/login', async () => {
    const { deps, handle } = setup();
    handle(envelope({}, -3001));
    expect(deps.clearLogin).toHaveBeenCalled();
    expect(deps.rememberLocation).toHaveBeenCalled();
    await Promise.resolve();
    await Promise.resolve();
    expect(deps.navigate).toHaveBeenCalledWith('/user/login');
  });

  it('-4004 goes to /404 without touching the login', () => {
    const { deps, handle } = setup();
    handle(envelope({}, -4004));
    expect(deps.navigate).toHaveBeenCalledWith('/404');
    expect(deps.clearLogin).not.toHaveBeenCalled();
  });

  it('-3006 (the joining fee is unpaid) goes to /forum/partner-invite, keeping the login', () => {
    const { deps, handle } = setup('/thread/7');
    handle(envelope({}, -3006));
    expect(deps.navigate).toHaveBeenCalledWith('/forum/partner-invite');
    expect(deps.clearLogin).not.toHaveBeenCalled();
    expect(deps.rememberLocation).not.toHaveBeenCalled();
    const there = setup('/forum/partner-invite');
    there.handle(envelope({}, -3006));
    expect(there.deps.navigate).not.toHaveBeenCalled();
  });

  it('does nothing for other codes, and does not navigate to where the user already is', () => {
    const other = setup();
    other.handle(envelope({}, -7062));
    expect(other.deps.navigate).not.toHaveBeenCalled();
    const here = setup('/404');
    here.handle(envelope({}, -4004));
    expect(here.deps.navigate).not.toHaveBeenCalled();
  });

  it('-8001 (a phone must be bound to post) goes to /user/bind-phone, keeping the login', () => {
    const { deps, handle } = setup('/thread/post');
    handle(envelope({}, -8001));
    expect(deps.navigate).toHaveBeenCalledWith('/user/bind-phone');
    expect(deps.clearLogin).not.toHaveBeenCalled();
    const there = setup('/user/bind-phone');
    there.handle(envelope({}, -8001));
    expect(there.deps.navigate).not.toHaveBeenCalled();
  });
});
