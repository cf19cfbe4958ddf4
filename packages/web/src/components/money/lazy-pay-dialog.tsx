import { lazy, Suspense, useState } from 'react';
import type { PayDialogProps } from './pay-dialog';

const PayDialogChunk = lazy(() => import('./pay-dialog').then((module) => ({ default: module.PayDialog })));

/**
 * The payment dialog, loaded the first time it opens: a page that lists paid threads (the home page) does not carry
 * the checkout (wallet, pay password, providers, QR code) until someone buys. Once opened it stays mounted, as the
 * dialog itself would.
 */
export function LazyPayDialog(props: PayDialogProps) {
  const [used, setUsed] = useState(false);
  if (props.open && !used) setUsed(true);
  if (!props.open && !used) return null;
  return (
    <Suspense fallback={null}>
      <PayDialogChunk {...props} />
    </Suspense>
  );
}
