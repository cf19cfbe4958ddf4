import { REPORT_REASON_MAX, REPORT_REASONS, reportCreateBody, type ReportTypeValue } from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { post } from '../../api/mutate';
import { usePending } from '../../hooks/use-pending';
import { Button, Dialog, Textarea, toast } from '../ui';
import './community.css';
import { endpoints } from '../../api/endpoints';

const TYPE_NAME = { 0: 'user', 1: 'thread', 2: 'post' } as const;

export interface ReportTarget {
  type: ReportTypeValue;
  threadId?: number;
  postId?: number;
  userId?: number;
}

/** The report dialog: a reason from the list, and what the member wants to add in their own words. */
export function ReportDialog({ target, open, onClose }: { target: ReportTarget; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<string>('');
  const [detail, setDetail] = useState('');
  const { pending, run } = usePending();

  const submit = async () => {
    if (!reason) {
      toast.warning(t('community.report.needReason'));
      return;
    }
    const label = t(`community.report.reasons.${reason as (typeof REPORT_REASONS)[number]}`);
    const text = detail.trim() ? `${label}：${detail.trim()}` : label;
    const body = { ...target, reason: [...text].slice(0, REPORT_REASON_MAX).join('') };
    const checked = reportCreateBody.safeParse(body);
    if (!checked.success) return;
    await run(async () => {
      if (await post(endpoints.reports.create, body)) {
        toast.success(t('community.report.sent'));
        setReason('');
        setDetail('');
        onClose();
      }
    });
  };

  return (
    <Dialog
      open={open}
      title={t(`community.report.titleOf.${TYPE_NAME[target.type]}`)}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('community.report.cancel')}</Button>
          <Button type="primary" loading={pending} onClick={() => void submit()} data-testid="report-submit">
            {t('community.report.submit')}
          </Button>
        </>
      }
    >
      <fieldset className="lt-report__reasons" data-testid="report-dialog">
        <legend className="lt-field__label">{t('community.report.reasonLabel')}</legend>
        {REPORT_REASONS.map((key) => (
          <label key={key} className="lt-report__reason">
            <input
              type="radio"
              name="report-reason"
              value={key}
              checked={reason === key}
              onChange={() => setReason(key)}
            />
            {t(`community.report.reasons.${key}`)}
          </label>
        ))}
      </fieldset>
      <Textarea
        label={t('community.report.detail')}
        placeholder={t('community.report.detailPlaceholder')}
        value={detail}
        onChange={setDetail}
        rows={3}
        maxLength={150}
      />
    </Dialog>
  );
}
