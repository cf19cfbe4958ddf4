import { DIALOG_MESSAGE_MAX } from '@luntan/shared';
import {
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { CHAT_IMAGE_TYPES, type ChatContent } from '../../hooks/use-chat-actions';
import { Button, Icon, Textarea } from '../ui';
import { EmojiPicker } from '../emoji/emoji-picker';

export interface ChatComposerProps {
  send: (content: ChatContent) => Promise<boolean>;
  sendImage: (file: File) => Promise<boolean>;
  sending: boolean;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line (an input method's Enter, choosing characters, does
 * neither). An image goes out as a message of its own as soon as it is chosen or pasted; the text stays in the box.
 */
export function ChatComposer({ send, sendImage, sending }: ChatComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const box = useRef<HTMLFormElement>(null);
  const inputId = useId();

  const submit = async (): Promise<void> => {
    const messageText = text.trim();
    if (messageText === '' || sending) return;
    if (await send({ messageText })) setText('');
    box.current?.querySelector('textarea')?.focus();
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  const sendImages = async (files: File[]): Promise<void> => {
    for (const file of files) await sendImage(file);
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const images = [...event.clipboardData.files].filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    void sendImages(images);
  };

  const onChoose = (event: ChangeEvent<HTMLInputElement>): void => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    void sendImages(files);
  };

  return (
    <form ref={box} className="lt-chat__composer" onSubmit={onSubmit} data-testid="chat-composer">
      <Textarea
        id={inputId}
        aria-label={t('message.chat.input')}
        placeholder={t('message.chat.placeholder')}
        value={text}
        onChange={setText}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        maxLength={DIALOG_MESSAGE_MAX}
        rows={3}
        enterKeyHint="send"
        data-testid="chat-input"
      />
      <div className="lt-chat__tools">
        <EmojiPicker
          targetId={inputId}
          onChange={setText}
          placement="up"
          buttonClassName="lt-button lt-button--text lt-button--small lt-chat__emoji-button"
        />
        <label
          className="lt-button lt-button--text lt-button--small lt-chat__image-button"
          title={t('message.chat.sendImage')}
        >
          <Icon name="image" size={16} />
          <span className="lt-button__text">{t('message.chat.imageButton')}</span>
          <input
            type="file"
            accept={CHAT_IMAGE_TYPES.join(',')}
            className="lt-visually-hidden"
            onChange={onChoose}
            disabled={sending}
            data-testid="chat-image-input"
          />
        </label>
        <span className="lt-chat__hint">{t('message.chat.hint')}</span>
        <Button
          type="primary"
          size="small"
          htmlType="submit"
          loading={sending}
          disabled={text.trim() === ''}
          data-testid="chat-send"
        >
          {t('message.chat.send')}
        </Button>
      </div>
    </form>
  );
}
