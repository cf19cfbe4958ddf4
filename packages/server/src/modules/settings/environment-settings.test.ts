import { afterAll, expect, it } from 'vitest';
import { ADMIN, newStorage, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * PAYMENT_SANDBOX=1 turns the sandbox provider on whatever the back office stored: the settings answer says so, with
 * the variable's name, so that the payment settings page shows it on and not editable instead of the stored "off".
 */
interface Row {
  key: string;
  tag: string;
  value: unknown;
  fromEnvironment?: string;
}

const storage = newStorage();
let t: TestServer | undefined;

afterAll(async () => {
  await t?.close();
});

const paySandboxRows = async (server: TestServer) => {
  const admin = await server.login(ADMIN.username, ADMIN.password);
  const rows = (await server.get<Row[]>('/api/backAdmin/settings', admin)).Data;
  return rows.filter((r) => r.key === 'paySandbox');
};

it('answers paySandbox as on and set by PAYMENT_SANDBOX while the variable is on, and as stored otherwise', async () => {
  t = await startTestServer({ storage, env: { PAYMENT_SANDBOX: '1' } });
  const admin = await t.login(ADMIN.username, ADMIN.password);
  const stored = await t.post(
    '/api/settings.v2',
    { data: [{ key: 'paySandbox', tag: 'default', value: false }] },
    admin,
  );
  expect(stored.Code).toBe(0);
  expect(await paySandboxRows(t)).toEqual([
    { key: 'paySandbox', tag: 'default', value: true, fromEnvironment: 'PAYMENT_SANDBOX' },
  ]);
  // What pays agrees with what the page is told.
  expect(
    (await t.get<{ sandbox: { enabled: boolean } }>('/api/backAdmin/pay/status', admin)).Data.sandbox.enabled,
  ).toBe(true);

  await t.close({ keep: true });
  t = await startTestServer({ storage });
  expect(await paySandboxRows(t)).toEqual([{ key: 'paySandbox', tag: 'default', value: false }]);
});
