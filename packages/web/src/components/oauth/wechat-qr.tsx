import { Code, type WechatQrCode, type WechatQrStatus } from '@luntan/shared';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess } from '../../api/dispatcher';
import { useAppContext } from '../../app-context';
import { QrCode } from '../money/qr-code';
import { Button, Spinner } from '../ui';
import './oauth.css';
import { endpoints } from '../../api/endpoints';

const POLL_MS = 2000;

/**
 * The desktop's WeChat QR code (pc/h5.genqrcode): the phone scans it and authorises in WeChat; meanwhile the page
 * asks pc/h5.login every two seconds until the phone is done (then `onDone`), or the code expires (refresh).
 */
export function WechatQrPanel({
  type,
  onDone,
}: {
  type: 'pc_login' | 'pc_bind';
  onDone: (status: WechatQrStatus) => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const [qr, setQr] = useState<WechatQrCode | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);

  const load = useCallback(async () => {
    setQr(null);
    setExpired(false);
    setProblem(null);
    const result = await api.get<WechatQrCode>(endpoints.wechat.qrCode, { type });
    if (isSuccess(result)) setQr(result.Data);
    else setProblem(result.Message);
  }, [api, type]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (!qr || expired) return;
    let live = true;
    const timer = window.setInterval(() => {
      void api
        .get<WechatQrStatus>(endpoints.wechat.qrLogin, { sessionToken: qr.sessionToken }, { handleError: false })
        .then(async (result) => {
          if (!live) return;
          if (isSuccess(result)) {
            if (result.Data.status === 'done') {
              live = false;
              window.clearInterval(timer);
              await onDone(result.Data);
            }
            return;
          }
          window.clearInterval(timer);
          setExpired(true);
          if (result.Code !== Code.RESOURCE_EXPIRED) setProblem(result.Message);
        });
    }, POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [api, qr, expired, onDone]);

  return (
    <div className="lt-wx" data-testid="wechat-qr">
      <p className="lt-wx__hint">{type === 'pc_bind' ? t('oauth.wx.scanBind') : t('oauth.wx.scanLogin')}</p>
      {qr ? (
        <div className={`lt-wx__qr${expired ? ' lt-wx__qr--expired' : ''}`}>
          <QrCode text={qr.url} alt={t('oauth.wx.qrAlt')} />
          {expired ? (
            <div className="lt-wx__expired">
              <strong>{t('oauth.wx.expired')}</strong>
              <Button size="small" type="primary" onClick={() => void load()} data-testid="wechat-qr-refresh">
                {t('oauth.wx.refresh')}
              </Button>
            </div>
          ) : null}
        </div>
      ) : problem ? null : (
        <Spinner />
      )}
      {problem ? (
        <p className="lt-auth__notice" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
