import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { forum, viewer } from '../../test/fixtures';
import { fakeApi, renderWithApp } from '../../test/render';
import { PushSettingsBlock } from './push-settings';

const PREFERENCES = { reply: true, mention: true, like: false, message: true, financial: true, devices: 2 };

describe('the push section of /my', () => {
  it('says when this browser has no push, and still shows the switches and the devices (they are the account’s)', async () => {
    // happy-dom has no PushManager: a browser without push.
    const api = fakeApi({ '/api/v3/push/preferences': () => PREFERENCES });
    renderWithApp(<PushSettingsBlock userId={7} />, { api, forum: forum({ user: viewer() }) });
    expect(screen.getByRole('heading', { name: '推送通知' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('push-state').getAttribute('data-state')).toBe('unsupported'));
    expect(screen.getByTestId('push-unsupported').textContent).toContain('这个浏览器不支持推送通知');
    expect(screen.queryByTestId('push-on')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('push-devices').textContent).toBe('2 台设备接收推送'));
    const checked = ['reply', 'mention', 'like', 'message', 'financial'].map(
      (kind) => (screen.getByTestId(`push-kind-${kind}`) as HTMLInputElement).checked,
    );
    expect(checked).toEqual([true, true, false, true, true]);
    expect(screen.getByRole('switch', { name: '私信' })).toBeTruthy();
  });

  it('speaks English', async () => {
    const api = fakeApi({ '/api/v3/push/preferences': () => ({ ...PREFERENCES, devices: 0 }) });
    renderWithApp(<PushSettingsBlock userId={7} />, { api, locale: 'en', forum: forum({ user: viewer() }) });
    await waitFor(() => expect(screen.getByTestId('push-devices').textContent).toBe('No device receives push yet'));
    expect(screen.getByTestId('push-unsupported').textContent).toContain('This browser cannot receive push');
    expect(screen.getByRole('switch', { name: 'Financial notices' })).toBeTruthy();
  });
});
