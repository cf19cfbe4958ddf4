import type { DialogMessageCreated } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess, request } from '../api/dispatcher';
import { dialogsKey } from '../api/message-queries';
import { uploadImage } from '../api/upload';
import { useAppContext } from '../app-context';
import { toast } from '../components/ui';
import { refreshUnread } from './use-unread';
import { endpoints } from '../api/endpoints';

/** The images a private message may carry (the server checks the bytes again). */
export const CHAT_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export interface ChatTarget {
  /** The other member. */
  userId: number;
  /** null until the first message creates the dialog. */
  dialogId: number | null;
  viewerId: number;
}

export interface ChatContent {
  messageText?: string;
  attachmentId?: number;
}

/**
 * Sending: into the dialog, or (before there is one) through dialog.create to the member, which creates it. A
 * refusal (blocked either way, messages switched off, too many a minute, a stop word) shows the server's message;
 * the shared handler stays out of it, so a member who no longer exists is not a trip to /404.
 */
export function useSendMessage(target: ChatTarget): {
  send: (content: ChatContent) => Promise<boolean>;
  sendImage: (file: File) => Promise<boolean>;
  sending: boolean;
} {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(0);

  const send = async (content: ChatContent): Promise<boolean> => {
    setSending((n) => n + 1);
    try {
      const result = await request<DialogMessageCreated>({
        method: 'POST',
        handleError: false,
        ...(target.dialogId
          ? { url: endpoints.dialogs.sendMessage, data: { dialogId: target.dialogId, ...content } }
          : { url: endpoints.dialogs.create, data: { recipientUserId: target.userId, ...content } }),
      });
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return false;
      }
      // The new message (and, after the first one, the dialog itself) and the list's order and last message; the
      // box empties at once, without waiting for them.
      void queryClient.invalidateQueries({ queryKey: [...dialogsKey, target.viewerId] });
      return true;
    } finally {
      setSending((n) => n - 1);
    }
  };

  const sendImage = async (file: File): Promise<boolean> => {
    if (!CHAT_IMAGE_TYPES.includes(file.type)) {
      toast.warning(t('message.chat.imageType'));
      return false;
    }
    setSending((n) => n + 1);
    try {
      const uploaded = await uploadImage(file);
      if (!isSuccess(uploaded)) {
        toast.error(uploaded.Message);
        return false;
      }
      return await send({ attachmentId: uploaded.Data.id });
    } finally {
      setSending((n) => n - 1);
    }
  };

  return { send, sendImage, sending: sending > 0 };
}

/**
 * Opening a chat marks the dialog read (dialog.update), and so does every new message from the other member while
 * the chat is on screen; a hidden tab waits until it is shown again. The badges are read again at once.
 */
export function useMarkRead(dialogId: number | null, newestFromOther: number | undefined, viewerId: number): void {
  const ctx = useAppContext();
  const marked = useRef<string | null>(null);

  useEffect(() => {
    if (!dialogId || newestFromOther === undefined) return;
    const key = `${dialogId}:${newestFromOther}`;
    const mark = (): void => {
      if (document.visibilityState === 'hidden' || marked.current === key) return;
      marked.current = key;
      void request({ url: endpoints.dialogs.update, method: 'POST', data: { dialogId }, handleError: false }).then(
        async (result) => {
          if (!isSuccess(result)) return;
          await Promise.all([
            refreshUnread(ctx, viewerId),
            ctx.queryClient.invalidateQueries({ queryKey: [...dialogsKey, viewerId, 'list'] }),
          ]);
        },
      );
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [ctx, dialogId, newestFromOther, viewerId]);
}
