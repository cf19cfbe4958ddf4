import { useEffect, useState } from 'react';
import { Spinner } from '../ui';

/**
 * A QR code of a text (WeChat Pay's `code_url`), drawn in the browser as an image. The `qrcode` package is loaded
 * only when a code is shown, so no other page carries it.
 */
export function QrCode({ text, alt, size = 220 }: { text: string; alt: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSrc(null);
    void import('qrcode')
      .then((QRCode) => QRCode.toDataURL(text, { width: size, margin: 1, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (live) setSrc(url);
      })
      .catch((error: unknown) => console.error('[qr-code]', error));
    return () => {
      live = false;
    };
  }, [text, size]);
  return (
    <div className="lt-qr" style={{ width: size, height: size }} data-testid="pay-qr">
      {src ? <img src={src} alt={alt} width={size} height={size} data-qr-text={text} /> : <Spinner />}
    </div>
  );
}
