import type { BrowserContext, Page } from 'playwright-core';
import { ApiClient } from './api';
import { ADMIN } from './server';
import type { E2E } from './harness';

/** The helpers the back-office browser tests share; `e2e` is the file's useE2E(). */
export function adminKit(e2e: E2E) {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SAQkAURSDVsZkF98SF2M8/sAAOhY+T5O6AQuwviK7kHdJ3YAFWF+RXci7pG7AAqyvyC7kXVI3YAHWV2QX8i6pG7AA6yuyC3mX1A1YgPUV2YW8S+oGLMD6iuxC3iV1AxZgfUV2Ie+SugELsL4iu5B3Sd2AxwN+rJ5lAAkHD0kAAAAASUVORK5CYII=',
    'base64',
  );

  async function signIn(context: BrowserContext, token: string): Promise<void> {
    await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
  }

  async function asAdmin(): Promise<{ page: Page; errors: string[]; admin: ApiClient }> {
    const admin = await e2e.admin();
    const { page, context, errors } = await e2e.newPage();
    const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
      'POST',
      '/api/v3/users/username.login',
      ADMIN,
    );
    await signIn(context, session.accessToken);
    // The back office asks in its own dialog: a browser dialog (window.confirm) is a defect.
    page.on('dialog', (dialog) => {
      errors.push(`browser dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    return { page, errors, admin };
  }

  return { PNG, signIn, asAdmin };
}
