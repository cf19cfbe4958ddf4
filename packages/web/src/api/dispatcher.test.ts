import { Code, loginBody, registerBody, settingsUpdateBody } from '@luntan/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../test/fixtures';
import { request, setErrorListener, toFailedCall } from './dispatcher';
import { serializeQuery } from './query-string';
import { saveAccessToken } from './token-store';
import type { ParameterValidatorError } from './validate';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setErrorListener(null);
});

describe('query form', () => {
  it('writes arrays with indices and encodes the values', () => {
    expect(serializeQuery({ a: [1, 2] })).toBe('a[0]=1&a[1]=2');
    expect(serializeQuery({ keyword: 'rock & roll #1' })).toBe('keyword=rock%20%26%20roll%20%231');
    expect(serializeQuery({ filter: { type: 'liked', ids: [3] } })).toBe('filter[type]=liked&filter[ids][0]=3');
    expect(serializeQuery({ skipped: null, kept: 0 })).toBe('kept=0');
  });
});

describe('request', () => {
  it('sends a GET with credentials and JSON by default, with the query in indexed form', async () => {
    fetchMock.mockResolvedValue(jsonResponse(envelope({ ok: true })));
    const result = await request<{ ok: boolean }>({ url: '/api/x', params: { a: [1, 2], q: 'a&b' } });
    expect(result).toMatchObject({ Code: 0, Data: { ok: true } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/x?a[0]=1&a[1]=2&q=a%26b');
    expect(init?.method).toBe('GET');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBeUndefined();
    expect((init?.headers as Record<string, string>).Accept).toBe('application/json');
  });

  it('sends a JSON body and the saved access token', async () => {
    saveAccessToken('tok-1');
    fetchMock.mockResolvedValue(jsonResponse(envelope({})));
    await request({ url: '/api/y', method: 'POST', data: { a: 1 } });
    const [, init] = fetchMock.mock.calls[0]!;
    const headers = init?.headers as Record<string, string>;
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers.Authorization).toBe('Bearer tok-1');
  });

  it('gives up after 30000 ms by default with code -500', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = request({ url: '/api/slow' });
    await vi.advanceTimersByTimeAsync(29_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toEqual({
      Code: Code.TIMEOUT,
      Message: 'timeout of 30000 ms exceeded',
      Data: {},
    });
  });

  it('honours a per-call time-out', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = request({ url: '/api/slow', timeout: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await pending).toMatchObject({ Code: -500, Message: 'timeout of 1000 ms exceeded' });
  });

  it('turns a network failure into code -1 with an empty Data', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await request({ url: '/api/down' })).toEqual({ Code: -1, Message: 'Network Error', Data: {} });
  });

  it('turns an HTTP error without an envelope into code -1 with the status', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502 }));
    expect(await request({ url: '/api/x' })).toEqual({
      Code: -1,
      Message: 'Request failed with status code 502',
      Data: {},
    });
  });

  it('keeps a business error envelope, and passes it to the shared error handler', async () => {
    const listener = vi.fn();
    setErrorListener(listener);
    fetchMock.mockResolvedValue(jsonResponse(envelope({}, -4004, 'missing')));
    const result = await request({ url: '/api/thing' });
    expect(result).toMatchObject({ Code: -4004, Message: 'missing' });
    expect(listener).toHaveBeenCalledWith(result, expect.objectContaining({ url: '/api/thing' }));
  });

  it('skips the shared error handler when a call asks to', async () => {
    const listener = vi.fn();
    setErrorListener(listener);
    fetchMock.mockResolvedValue(jsonResponse(envelope({}, -7062, 'wrong password')));
    await request({ url: '/api/login', method: 'POST', data: {}, handleError: false });
    expect(listener).not.toHaveBeenCalled();
  });

  it('only warns about invalid parameters and still sends the call', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(jsonResponse(envelope({})));
    const result = await request({
      url: '/api/settings.v2',
      method: 'POST',
      data: { data: 'not an array' },
      validator: settingsUpdateBody,
    });
    expect(result.Code).toBe(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
    const error = warn.mock.calls[0]![0] as ParameterValidatorError;
    expect(error.name).toBe('Parameter Validator Error');
    // The server's sentence for the same failure (packages/shared/src/validation-messages.ts), in the page's language.
    expect(error.message).toBe('设置必须是列表');
    expect(error.path).toBe('data');
  });

  it('blocks the call when validation is switched on for it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await request({
      url: '/api/v3/users/username.login',
      method: 'POST',
      data: { username: '', password: 'x' },
      validator: loginBody,
      isValidate: true,
    });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(result.Code).toBe(Code.INVALID_PARAMETER);
    expect(result.Message).toBe('用户名不能为空');
    expect(result.Data).toEqual({});
  });

  it('writes the failure in the language of the page', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    document.documentElement.lang = 'en';
    try {
      const result = await request({
        url: '/api/v3/users/username.register',
        method: 'POST',
        data: { username: 'abcd', password: '12345' },
        validator: registerBody,
        isValidate: true,
      });
      expect(result.Message).toBe('Password must be at least 6 characters');
    } finally {
      document.documentElement.lang = '';
    }
  });

  it('does not warn when the parameters are valid', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(jsonResponse(envelope({})));
    await request({ url: '/x', method: 'POST', data: { username: 'a', password: 'b' }, validator: loginBody });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('toFailedCall', () => {
  it('maps time-out messages to -500 and anything else to -1', () => {
    expect(toFailedCall(new Error('timeout of 1000 ms exceeded')).Code).toBe(-500);
    expect(toFailedCall(new Error('timeout of 1000ms exceeded')).Code).toBe(-500);
    expect(toFailedCall(new Error('Request aborted'))).toEqual({ Code: -1, Message: 'Request aborted', Data: {} });
  });
});
