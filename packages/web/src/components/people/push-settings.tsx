import { PUSH_KINDS, pushSubscribeBody, type PushKind } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isSuccess, request, type ApiResult } from '../../api/dispatcher';
import { endpoints } from '../../api/endpoints';
import { post } from '../../api/mutate';
import { pushKey, pushPreferencesKey, pushPreferencesQuery, type PushSettings } from '../../api/push-queries';
import { useAppContext } from '../../app-context';
import { usePending } from '../../hooks/use-pending';
import { useTranslation } from '../../i18n/use-translation';
import { activeRegistration, currentSubscription, describeError, pushSupported, subscribePush } from './web-push';
import { Button, Spinner, toast } from '../ui';
import './push-settings.css';

/** This device: not known yet (server render, first effect), no push here, blocked by the browser, off, or on. */
type DeviceState = 'checking' | 'unsupported' | 'denied' | 'off' | 'on';

/** What the browser says now: read after mounting (the server cannot know), and again after each change. */
async function readDeviceState(): Promise<DeviceState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return (await currentSubscription().catch(() => null)) ? 'on' : 'off';
}

/**
 * Turning push on and off for this browser: the permission, the subscription made with the site's key, and the
 * server told about it. A failure leaves a written error in the section (a toast would be gone before it is read).
 */
function usePushDevice(userId: number) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const [state, setState] = useState<DeviceState>('checking');
  const [error, setError] = useState<string | null>(null);
  const { pending, run } = usePending();

  useEffect(() => {
    let live = true;
    void readDeviceState().then((next) => {
      if (live) setState(next);
    });
    return () => {
      live = false;
    };
  }, []);

  const devicesChanged = () => queryClient.invalidateQueries({ queryKey: pushPreferencesKey(userId) });

  const subscribe = async (): Promise<void> => {
    const permission = await Notification.requestPermission();
    if (permission === 'denied') {
      setState('denied');
      return;
    }
    if (permission !== 'granted') {
      setError(t('my.push.notAllowed'));
      return;
    }
    const key = await pushKey(api);
    if (!isSuccess(key)) {
      setError(key.Message);
      return;
    }
    const registration = await activeRegistration();
    let subscription: PushSubscription;
    try {
      subscription = await subscribePush(registration, key.Data.publicKey);
    } catch (cause) {
      // Chromium rejects with AbortError in a private window ("permission denied") or when its push service fails
      // ("push service error"); with none reachable it never answers (TimeoutError, ours).
      setError(t('my.push.subscribeFailed', { detail: describeError(cause) }));
      return;
    }
    const saved = await request<{ subscribed: boolean }>({
      url: endpoints.push.subscribe,
      method: 'POST',
      data: subscription.toJSON(),
      validator: pushSubscribeBody,
    });
    if (!isSuccess(saved)) {
      // The server will not push to it: the browser should not keep it either.
      await subscription.unsubscribe().catch(() => false);
      setError(saved.Message);
      return;
    }
    setState('on');
    toast.success(t('my.push.turnedOn'));
    await devicesChanged();
  };

  const turnOn = () =>
    run(async () => {
      setError(null);
      try {
        await subscribe();
      } catch (cause) {
        setError(t('my.push.failed', { detail: describeError(cause) }));
      }
    });

  const turnOff = () =>
    run(async () => {
      setError(null);
      try {
        const subscription = await currentSubscription();
        if (subscription) {
          await subscription.unsubscribe();
          const done = await post(endpoints.push.unsubscribe, { endpoint: subscription.endpoint });
          if (done) toast.success(t('my.push.turnedOff'));
        }
        setState(await readDeviceState());
        await devicesChanged();
      } catch (cause) {
        setError(describeError(cause));
      }
    });

  return { state, error, pending, turnOn, turnOff };
}

/** One kind's switch, saved as soon as it changes; the server's answer is what it then shows. */
function KindSwitch({ kind, settings, userId }: { kind: PushKind; settings: PushSettings; userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { pending, run } = usePending();
  const change = (on: boolean) =>
    run(async () => {
      const next = await post<PushSettings>(endpoints.push.preferences, { [kind]: on });
      if (!next) return;
      queryClient.setQueryData<ApiResult<PushSettings>>(pushPreferencesKey(userId), (old) =>
        old && isSuccess(old) ? { ...old, Data: next } : old,
      );
      toast.success(t('my.settings.saved'));
    });
  return (
    <label className="lt-switch">
      <input
        type="checkbox"
        role="switch"
        className="lt-switch__input"
        checked={settings[kind]}
        disabled={pending}
        onChange={(event) => void change(event.target.checked)}
        data-testid={`push-kind-${kind}`}
      />
      <span className="lt-switch__track" aria-hidden="true" />
      <span className="lt-switch__label">{t(`my.push.kind.${kind}`)}</span>
    </label>
  );
}

/** The member's switches per kind of notice (all their devices), and how many devices receive pushes. */
function PushKinds({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(pushPreferencesQuery(api, userId)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-settings__note lt-settings__note--off">{result.Message}</p>;
  const settings = result.Data;
  return (
    <>
      <fieldset className="lt-push__kinds">
        <legend className="lt-push__legend">{t('my.push.kinds')}</legend>
        {PUSH_KINDS.map((kind) => (
          <KindSwitch key={kind} kind={kind} settings={settings} userId={userId} />
        ))}
      </fieldset>
      <p className="lt-settings__hint" data-testid="push-devices" data-count={settings.devices}>
        {settings.devices > 0 ? t('my.push.devices', { n: settings.devices }) : t('my.push.noDevices')}
      </p>
    </>
  );
}

/** The personal centre's push notifications: this device on or off, and what is pushed. */
export function PushSettingsBlock({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { state, error, pending, turnOn, turnOff } = usePushDevice(userId);
  const stateText = state === 'on' || state === 'off' || state === 'denied' ? t(`my.push.state.${state}`) : null;
  return (
    <section className="lt-settings__block lt-push" aria-labelledby="settings-push" data-testid="push-settings">
      <h3 id="settings-push" className="lt-settings__title">
        {t('my.push.title')}
      </h3>
      <p className="lt-settings__hint">{t('my.push.intro')}</p>
      <div className="lt-push__device" data-testid="push-state" data-state={state}>
        {state === 'checking' ? <span className="lt-settings__hint">{t('my.push.checking')}</span> : null}
        {state === 'unsupported' ? (
          <p className="lt-settings__note lt-settings__note--off" data-testid="push-unsupported">
            {t('my.push.unsupported')}
          </p>
        ) : null}
        {stateText ? <span className={`lt-push__state lt-push__state--${state}`}>{stateText}</span> : null}
        {state === 'off' ? (
          <Button type="primary" loading={pending} onClick={() => void turnOn()} data-testid="push-on">
            {t('my.push.turnOn')}
          </Button>
        ) : null}
        {state === 'on' ? (
          <Button loading={pending} onClick={() => void turnOff()} data-testid="push-off">
            {t('my.push.turnOff')}
          </Button>
        ) : null}
      </div>
      {state === 'denied' ? (
        <p className="lt-settings__note lt-settings__note--off" data-testid="push-denied">
          {t('my.push.deniedHint')}
        </p>
      ) : null}
      {error ? (
        <p className="lt-settings__note lt-settings__note--off" role="alert" data-testid="push-error">
          {error}
        </p>
      ) : null}
      <PushKinds userId={userId} />
    </section>
  );
}
