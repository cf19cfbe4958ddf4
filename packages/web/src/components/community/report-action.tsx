import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Button, Icon } from '../ui';
import type { ReportTarget } from './report-dialog';

const TYPE_NAME = { 0: 'user', 1: 'thread', 2: 'post' } as const;

/*
 * The dialog (its reasons and the report's schema, with zod) is loaded the first time someone reports: a thread page
 * has this action on every post, and carrying the dialog with the page cost every reader its download and start-up.
 */
const ReportDialogChunk = lazy(() => import('./report-dialog').then((module) => ({ default: module.ReportDialog })));

/** A 举报 / Report action beside a thread's, a reply's or a user's other actions. */
export function ReportAction({
  target,
  variant = 'action',
}: {
  target: ReportTarget;
  /** `action`: a quiet action like 点赞; `button`: a button among a profile's buttons. */
  variant?: 'action' | 'button';
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // The dialog is made when first opened (then kept, with what was chosen in it): a page of replies has an action on
  // every post, and the server's render would otherwise build every closed dialog's content.
  const [used, setUsed] = useState(false);
  const show = (): void => {
    setUsed(true);
    setOpen(true);
  };
  const testId = `report-${TYPE_NAME[target.type]}`;
  return (
    <>
      {variant === 'button' ? (
        <Button type="text" size="middle" onClick={show} data-testid={testId}>
          {t('community.report.action')}
        </Button>
      ) : (
        <button type="button" className="lt-action" onClick={show} data-testid={testId}>
          <Icon name="flag" />
          <span>{t('community.report.action')}</span>
        </button>
      )}
      {used ? (
        <Suspense fallback={null}>
          <ReportDialogChunk target={target} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
