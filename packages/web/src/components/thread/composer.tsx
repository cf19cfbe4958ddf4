import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useSuggestions } from '../forum/topic-suggest';
import { EmojiPicker } from '../emoji/emoji-picker';
import { Button, Textarea, toast } from '../ui';
import { useCaptcha } from '../community/captcha';
import { usePending } from '../../hooks/use-pending';

/** A reply box: a labelled textarea and a send button. */
export function Composer({
  label,
  placeholder,
  initial = '',
  submitLabel,
  onSubmit,
  onCancel,
  testId,
  needsCaptcha = false,
}: {
  label: string;
  placeholder?: string;
  initial?: string;
  submitLabel: string;
  onSubmit: (text: string, captcha?: string) => Promise<boolean>;
  onCancel?: () => void;
  testId: string;
  /** posts.create while the viewer's group must solve a captcha to publish. */
  needsCaptcha?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const textareaId = useId();
  const mentions = useSuggestions(textareaId, text, setText);
  const { pending, run } = usePending();
  const captcha = useCaptcha(needsCaptcha);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      toast.warning(t('thread.emptyReply'));
      return;
    }
    run(async () => onSubmit(text, await captcha.take()))
      .then((done) => {
        if (done) setText('');
      })
      .catch((error: unknown) => console.error(error));
  };
  return (
    <form className="lt-composer" onSubmit={submit} data-testid={testId}>
      <div className="lt-mention-host">
        <Textarea
          id={textareaId}
          aria-label={label}
          placeholder={placeholder}
          value={text}
          onChange={setText}
          rows={3}
          maxLength={50_000}
          {...mentions.textareaProps}
        />
        {mentions.popup}
      </div>
      {captcha.element}
      <div className="lt-composer__actions">
        <EmojiPicker
          targetId={textareaId}
          onChange={setText}
          placement="up"
          buttonClassName="lt-editor__tool lt-composer__emoji"
        />
        {onCancel ? (
          <Button type="text" size="small" onClick={onCancel}>
            {t('thread.cancel')}
          </Button>
        ) : null}
        <Button type="primary" size="small" htmlType="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
