import { NICKNAME_MAX, SIGNATURE_MAX, type UserProfile } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess } from '../../api/dispatcher';
import { post } from '../../api/mutate';
import { forumKey } from '../../api/queries';
import { postForm } from '../../api/upload';
import { patchProfile } from '../../hooks/use-people-actions';
import { usePending } from '../../hooks/use-pending';
import { Avatar, Button, Icon, TextInput, Textarea, toast } from '../ui';
import { endpoints } from '../../api/endpoints';

/** What the server takes for an avatar or a background (it checks the bytes again). */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export type ProfileImageKind = 'avatar' | 'background';

/** After a change: every cached copy of the profile, the header's viewer, and the lists showing the old face. */
function useProfileSaved(): (profile: UserProfile) => Promise<void> {
  const queryClient = useQueryClient();
  return async (profile) => {
    patchProfile(queryClient, profile.id, () => profile);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: forumKey }),
      queryClient.invalidateQueries({ queryKey: ['threads'], refetchType: 'none' }),
      queryClient.invalidateQueries({ queryKey: ['people'], refetchType: 'none' }),
    ]);
  };
}

export interface ImageUpload {
  /** The chosen file's preview, until it is uploaded or dropped. */
  preview: string | null;
  pending: boolean;
  onChoose: (event: ChangeEvent<HTMLInputElement>) => void;
  confirm: () => void;
  cancel: () => void;
}

/** Choose an image, see it in place, then upload it (POST /api/v3/users/avatar or /background). */
export function useImageUpload(kind: ProfileImageKind): ImageUpload {
  const { t } = useTranslation();
  const saved = useProfileSaved();
  const { pending, run } = usePending();
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const current = useRef<string | null>(null);

  const drop = (): void => {
    if (current.current) URL.revokeObjectURL(current.current);
    current.current = null;
    setChosen(null);
  };
  useEffect(
    () => () => {
      if (current.current) URL.revokeObjectURL(current.current);
    },
    [],
  );

  const onChoose = (event: ChangeEvent<HTMLInputElement>): void => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      toast.warning(t('my.imageType'));
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      toast.warning(t('my.imageTooLarge'));
      return;
    }
    drop();
    const url = URL.createObjectURL(file);
    current.current = url;
    setChosen({ file, url });
  };

  const confirm = (): void => {
    if (!chosen) return;
    void run(async () => {
      const form = new FormData();
      form.append(kind, chosen.file, chosen.file.name || kind);
      const result = await postForm<UserProfile>(`/api/v3/users/${kind}`, form);
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return;
      }
      await saved(result.Data);
      drop();
      toast.success(t('my.imageSaved'));
    });
  };

  return { preview: chosen?.url ?? null, pending, onChoose, confirm, cancel: drop };
}

/** A button that opens the file chooser (a label over a hidden input, so the keyboard reaches it). */
function ChooseImage({
  label,
  onChoose,
  testId,
}: {
  label: string;
  onChoose: ImageUpload['onChoose'];
  testId: string;
}) {
  return (
    <label className="lt-button lt-button--default lt-button--small lt-image-choose">
      <Icon name="image" size={14} />
      <span className="lt-button__text">{label}</span>
      <input
        type="file"
        accept={IMAGE_TYPES.join(',')}
        className="lt-visually-hidden"
        onChange={onChoose}
        data-testid={testId}
      />
    </label>
  );
}

/** Use the previewed image, or drop it. */
function ConfirmImage({ upload }: { upload: ImageUpload }) {
  const { t } = useTranslation();
  return (
    <span className="lt-image-confirm">
      <Button type="primary" size="small" loading={upload.pending} onClick={upload.confirm} data-testid="image-save">
        {t('my.useImage')}
      </Button>
      <Button size="small" disabled={upload.pending} onClick={upload.cancel}>
        {t('my.cancel')}
      </Button>
    </span>
  );
}

/** The personal centre's avatar: the current one, or the chosen file's preview with its confirm buttons. */
export function AvatarEditor({ profile, upload }: { profile: UserProfile; upload: ImageUpload }) {
  const { t } = useTranslation();
  return (
    <div className="lt-avatar-editor">
      <Avatar
        image={upload.preview ?? profile.avatarUrl}
        text={profile.nickname}
        size="big"
        circle
        alt={upload.preview ? t('my.avatarPreview') : profile.nickname}
      />
      {upload.preview ? (
        <ConfirmImage upload={upload} />
      ) : (
        <ChooseImage label={t('my.changeAvatar')} onChoose={upload.onChoose} testId="avatar-input" />
      )}
    </div>
  );
}

/** The cover's corner control: choose a background, then use or drop the preview. */
export function BackgroundControl({ upload }: { upload: ImageUpload }): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="lt-profile__cover-control">
      {upload.preview ? (
        <>
          <span className="lt-visually-hidden">{t('my.backgroundPreview')}</span>
          <ConfirmImage upload={upload} />
        </>
      ) : (
        <ChooseImage label={t('my.changeBackground')} onChoose={upload.onChoose} testId="background-input" />
      )}
    </div>
  );
}

/** Nickname and signature (update.user); the server passes both through the stop words. */
export function ProfileForm({ profile, onDone }: { profile: UserProfile; onDone: () => void }) {
  const { t } = useTranslation();
  const saved = useProfileSaved();
  const { pending, run } = usePending();
  const [nickname, setNickname] = useState(profile.nickname);
  const [signature, setSignature] = useState(profile.signature);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void run(async () => {
      const changes: Record<string, string> = {};
      if (nickname.trim() !== profile.nickname) changes.nickname = nickname;
      if (signature.trim() !== profile.signature) changes.signature = signature;
      if (Object.keys(changes).length > 0) {
        const next = await post<UserProfile>(endpoints.users.update, changes);
        if (!next) return;
        await saved(next);
      }
      toast.success(t('my.saved'));
      onDone();
    });
  };

  return (
    <form className="lt-card lt-profile-form" onSubmit={submit} aria-labelledby="profile-form-title" noValidate>
      <h2 id="profile-form-title" className="lt-card__title">
        {t('my.editHeading')}
      </h2>
      <TextInput
        label={t('my.nickname')}
        name="nickname"
        value={nickname}
        onChange={setNickname}
        maxLength={NICKNAME_MAX}
        showLimit
      />
      <Textarea
        label={t('my.signature')}
        name="signature"
        value={signature}
        onChange={(value) => setSignature(value.replace(/[\r\n]+/g, ' '))}
        placeholder={t('my.signaturePlaceholder')}
        maxLength={SIGNATURE_MAX}
        showLimit
        rows={3}
      />
      <div className="lt-profile-form__actions">
        <Button disabled={pending} onClick={onDone}>
          {t('my.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="profile-save">
          {t('my.save')}
        </Button>
      </div>
    </form>
  );
}
