import {
  AUDIO_FORMATS,
  OrderType,
  VIDEO_FORMATS,
  type AttachmentItem,
  type FileAttachmentItem,
  type FilesPart,
  type ImagesPart,
  type MediaPart,
  type OrderInfo,
} from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useViewer } from '../../hooks/use-forum';
import { useTranslation } from '../../i18n/use-translation';
import { LazyPayDialog as PayDialog } from '../money/lazy-pay-dialog';
import { createOrder } from '../money/thread-money';
import { Button, Icon, TextInput } from '../ui';
import { durationText, fileSizeText, readMediaInfo, uploadWithProgress } from './media-upload';
import type { PartEditorProps, PartViewProps, ThreadPartUi } from './types';
import './media-parts.css';

/** One uploaded file as the editor lists it. */
interface DocInfo {
  id: number;
  fileName: string;
  fileSize: number;
}

/** Part 108 as the editor holds it: the body (docIds, price) and, for the list, the files' names and sizes. */
export interface FilesDraft {
  docIds?: number[];
  price?: string;
  docs?: DocInfo[];
}

/** A file picker button that uploads what is chosen, one file after another, showing the progress. */
function UploadButton({
  accept,
  multiple,
  label,
  testId,
  upload,
}: {
  accept?: string;
  multiple?: boolean;
  label: string;
  testId: string;
  upload: (file: File, onProgress: (f: number) => void) => Promise<string | null>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const pick = async (files: FileList | null) => {
    setError('');
    for (const file of Array.from(files ?? [])) {
      setProgress(0);
      const failed = await upload(file, setProgress);
      if (failed) setError(failed);
    }
    setProgress(null);
    if (input.current) input.current.value = '';
  };
  return (
    <div className="lt-media-upload">
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        multiple={multiple}
        data-testid={`${testId}-input`}
        onChange={(e) => void pick(e.currentTarget.files)}
      />
      <Button size="small" loading={progress !== null} onClick={() => input.current?.click()} data-testid={testId}>
        {label}
      </Button>
      {progress !== null ? (
        <progress className="lt-media-upload__progress" max={1} value={progress} data-testid={`${testId}-progress`} />
      ) : null}
      {error ? (
        <p className="lt-media-upload__error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function FilesEditor({ value, onChange, categoryId }: PartEditorProps<FilesDraft>) {
  const { t } = useTranslation();
  const v = value ?? {};
  const docs = v.docs ?? [];
  const latest = useRef(v);
  latest.current = v;
  const setDocs = (next: DocInfo[]) => onChange({ ...latest.current, docs: next, docIds: next.map((d) => d.id) });
  return (
    <div className="lt-files-editor" data-testid="files-editor">
      <ul className="lt-file-list">
        {docs.map((d) => (
          <li key={d.id} className="lt-file-list__item" data-testid="files-editor-item">
            <Icon name="file" />
            <span className="lt-file-list__name">{d.fileName}</span>
            <span className="lt-file-list__size">{fileSizeText(d.fileSize)}</span>
            <Button size="small" type="text" onClick={() => setDocs(docs.filter((x) => x.id !== d.id))}>
              {t('threadParts.remove')}
            </Button>
          </li>
        ))}
      </ul>
      <UploadButton
        multiple
        label={t('threadParts.files.upload')}
        testId="files-upload"
        upload={async (file, onProgress) => {
          const res = await uploadWithProgress<FileAttachmentItem>(
            file,
            file.name,
            { type: 'file', ...(categoryId ? { categoryId: String(categoryId) } : {}) },
            onProgress,
          );
          if (!res.ok) return res.message;
          const now = latest.current.docs ?? [];
          setDocs([...now, { id: res.data.id, fileName: res.data.fileName, fileSize: res.data.fileSize }]);
          return null;
        }}
      />
      <TextInput
        label={t('threadParts.files.price')}
        name="files-price"
        mode="number"
        placeholder="0.00"
        append="¥"
        appendWidth="32px"
        value={v.price ?? ''}
        onChange={(text) => {
          const { price: _dropped, ...rest } = latest.current;
          onChange(text.trim() === '' ? rest : { ...rest, price: text });
        }}
      />
    </div>
  );
}

function FilesView({ body, thread }: PartViewProps<FilesPart>) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [order, setOrder] = useState<OrderInfo | null>(null);
  const [pending, setPending] = useState(false);
  if (!body.canView) {
    return <p className="lt-files__note">{t('threadParts.files.hidden')}</p>;
  }
  const buy = async () => {
    if (!viewer) {
      await navigate('/user/login');
      return;
    }
    setPending(true);
    try {
      const created = await createOrder({ type: OrderType.ATTACHMENT, threadId: thread.threadId });
      if (created) setOrder(created);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="lt-files" data-testid="files-view">
      <h3 className="lt-files__title">
        <Icon name="file" /> {t('threadParts.files.title', { count: body.docs.length })}
      </h3>
      <ul className="lt-file-list">
        {body.docs.map((d) => (
          <li key={d.id} className="lt-file-list__item" data-testid="file-item">
            <Icon name="file" />
            <span className="lt-file-list__name">{d.fileName}</span>
            <span className="lt-file-list__size">{fileSizeText(d.fileSize)}</span>
            {d.url ? (
              <a
                className="lt-button lt-button--default lt-button--small"
                href={d.url}
                download={d.fileName}
                data-testid="file-download"
              >
                {t('threadParts.files.download')}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
      {body.needPay ? (
        <div className="lt-files__pay">
          <span>{t('threadParts.files.locked', { amount: body.price })}</span>
          <Button type="primary" size="small" loading={pending} onClick={() => void buy()} data-testid="files-buy">
            {viewer ? t('threadParts.files.buy', { amount: body.price }) : t('threadParts.files.loginToBuy')}
          </Button>
        </div>
      ) : !body.canDownload ? (
        <p className="lt-files__note">{t('threadParts.files.noDownload')}</p>
      ) : null}
      <PayDialog
        open={order !== null}
        order={order}
        onClose={() => setOrder(null)}
        onPaid={() => {
          setOrder(null);
          void queryClient.invalidateQueries({ queryKey: ['thread', thread.threadId] });
          void queryClient.invalidateQueries({ queryKey: ['wallet'] });
        }}
      />
    </div>
  );
}

export const filesPartUi: ThreadPartUi<FilesDraft, FilesPart> = {
  type: 108,
  label: 'threadParts.names.108',
  icon: 'file',
  Editor: FilesEditor,
  View: FilesView,
  fromView: (view) => ({
    docIds: view.docs.map((d) => d.id),
    docs: view.docs.map((d) => ({ id: d.id, fileName: d.fileName, fileSize: d.fileSize })),
    ...(view.price !== '0.00' ? { price: view.price } : {}),
  }),
  ready: (value) => (value?.docIds?.length ?? 0) > 0,
};

/** Audio or video as the editor holds it: the body and what the editor shows of the upload. */
export interface MediaDraft {
  audioId?: number;
  videoId?: number;
  posterId?: number;
  mediaUrl?: string;
  info?: { fileName: string; duration: number; posterUrl: string };
}

function mediaEditor(kind: 'audio' | 'video') {
  const formats = kind === 'audio' ? AUDIO_FORMATS : VIDEO_FORMATS;
  const idKey = kind === 'audio' ? 'audioId' : 'videoId';
  return function MediaEditor({ value, onChange, categoryId }: PartEditorProps<MediaDraft>) {
    const { t } = useTranslation();
    const v = value ?? {};
    const cat: Record<string, string> = categoryId ? { categoryId: String(categoryId) } : {};
    return (
      <div className="lt-media-editor" data-testid={`${kind}-editor`}>
        {v[idKey] && v.info ? (
          <div className="lt-file-list__item" data-testid={`${kind}-editor-item`}>
            {v.info.posterUrl ? <img className="lt-media-editor__poster" src={v.info.posterUrl} alt="" /> : null}
            <Icon name={kind} />
            <span className="lt-file-list__name">{v.info.fileName}</span>
            {v.info.duration ? <span className="lt-file-list__size">{durationText(v.info.duration)}</span> : null}
            <Button size="small" type="text" onClick={() => onChange({})}>
              {t('threadParts.remove')}
            </Button>
          </div>
        ) : null}
        <UploadButton
          accept={Object.entries(formats)
            .flatMap(([ext, mime]) => [`.${ext}`, mime])
            .join(',')}
          label={t(`threadParts.media.upload.${kind}`)}
          testId={`${kind}-upload`}
          upload={async (file, onProgress) => {
            const info = await readMediaInfo(file, kind);
            const res = await uploadWithProgress<FileAttachmentItem>(
              file,
              file.name,
              { type: kind, duration: String(info.duration || 0), ...cat },
              (f) => onProgress(info.poster ? f * 0.9 : f),
            );
            if (!res.ok) return res.message;
            let poster: AttachmentItem | undefined;
            if (info.poster) {
              const p = await uploadWithProgress<AttachmentItem>(
                info.poster,
                'poster.png',
                { type: 'image', ...cat },
                () => onProgress(0.95),
              );
              if (p.ok) poster = p.data;
            }
            onChange({
              [idKey]: res.data.id,
              ...(poster ? { posterId: poster.id } : {}),
              info: { fileName: res.data.fileName, duration: res.data.duration, posterUrl: poster?.thumbUrl ?? '' },
            });
            return null;
          }}
        />
        <p className="lt-media-editor__hint">
          {t('threadParts.media.formats', { formats: Object.keys(formats).join(', ') })}
        </p>
      </div>
    );
  };
}

function mediaView(kind: 'audio' | 'video') {
  return function MediaView({ body }: PartViewProps<MediaPart>) {
    const { t } = useTranslation();
    const [duration, setDuration] = useState(body.duration);
    if (!body.canPlay || !body.url) {
      return (
        <p className="lt-files__note" data-testid={`${kind}-locked`}>
          <Icon name={kind} /> {t(kind === 'video' ? 'threadParts.media.noVideo' : 'threadParts.media.noAudio')}
        </p>
      );
    }
    const source = <source src={body.url} {...(body.mimeType ? { type: body.mimeType } : {})} />;
    const caption: ReactNode = (
      <figcaption className="lt-media__caption">
        <Icon name={kind} />
        {body.fileName ? <span className="lt-file-list__name">{body.fileName}</span> : null}
        {duration ? (
          <span className="lt-media__duration" data-testid={`${kind}-duration`}>
            {durationText(duration)}
          </span>
        ) : null}
      </figcaption>
    );
    const onMeta = (e: { currentTarget: HTMLMediaElement }) => {
      const d = e.currentTarget.duration;
      if (!duration && Number.isFinite(d)) setDuration(d);
    };
    return (
      <figure className={`lt-media lt-media--${kind}`} data-testid={`${kind}-view`}>
        {kind === 'video' ? (
          <video
            className="lt-media__player"
            controls
            preload="metadata"
            playsInline
            poster={body.posterUrl || undefined}
            onLoadedMetadata={onMeta}
            data-testid="video-player"
          >
            {source}
          </video>
        ) : (
          <audio
            className="lt-media__player"
            controls
            preload="metadata"
            onLoadedMetadata={onMeta}
            data-testid="audio-player"
          >
            {source}
          </audio>
        )}
        {caption}
      </figure>
    );
  };
}

const mediaFromView =
  (idKey: 'audioId' | 'videoId') =>
  (view: MediaPart): MediaDraft =>
    view.id !== null
      ? { [idKey]: view.id, info: { fileName: view.fileName, duration: view.duration, posterUrl: view.posterUrl } }
      : { mediaUrl: view.url };

export const audioPartUi: ThreadPartUi<MediaDraft, MediaPart> = {
  type: 102,
  label: 'threadParts.names.102',
  icon: 'audio',
  Editor: mediaEditor('audio'),
  View: mediaView('audio'),
  fromView: mediaFromView('audioId'),
  ready: (value) => Boolean(value?.audioId ?? value?.mediaUrl),
};

export const videoPartUi: ThreadPartUi<MediaDraft, MediaPart> = {
  type: 103,
  label: 'threadParts.names.103',
  icon: 'video',
  Editor: mediaEditor('video'),
  View: mediaView('video'),
  fromView: mediaFromView('videoId'),
  ready: (value) => Boolean(value?.videoId ?? value?.mediaUrl),
};

/** Part 101 as the editor holds it. */
export interface ImagesDraft {
  imageIds?: number[];
  images?: { id: number; thumbUrl: string }[];
}

function ImagesEditor({ value, onChange, categoryId }: PartEditorProps<ImagesDraft>) {
  const { t } = useTranslation();
  const latest = useRef(value ?? {});
  latest.current = value ?? {};
  const images = latest.current.images ?? [];
  const setImages = (next: { id: number; thumbUrl: string }[]) =>
    onChange({ images: next, imageIds: next.map((i) => i.id) });
  return (
    <div className="lt-images-editor" data-testid="images-editor">
      <div className="lt-gallery">
        {images.map((i) => (
          <span key={i.id} className="lt-gallery__item">
            <img src={i.thumbUrl} alt="" />
            <button
              type="button"
              className="lt-gallery__remove"
              aria-label={t('threadParts.remove')}
              onClick={() => setImages(images.filter((x) => x.id !== i.id))}
            >
              ×
            </button>
          </span>
        ))}
      </div>
      <UploadButton
        multiple
        accept="image/jpeg,image/png,image/gif,image/webp"
        label={t('threadParts.images.upload')}
        testId="images-upload"
        upload={async (file, onProgress) => {
          const res = await uploadWithProgress<AttachmentItem>(
            file,
            file.name,
            { type: 'image', ...(categoryId ? { categoryId: String(categoryId) } : {}) },
            onProgress,
          );
          if (!res.ok) return res.message;
          setImages([...(latest.current.images ?? []), { id: res.data.id, thumbUrl: res.data.thumbUrl }]);
          return null;
        }}
      />
    </div>
  );
}

function ImagesView({ body }: PartViewProps<ImagesPart>) {
  if (body.images.length === 0) return null;
  return (
    <div className="lt-gallery" data-testid="images-view">
      {body.images.map((i) => (
        <a key={i.id} className="lt-gallery__item" href={i.url} target="_blank" rel="noopener noreferrer">
          <img src={i.thumbUrl} alt={i.fileName} loading="lazy" width={160} height={160} />
        </a>
      ))}
    </div>
  );
}

export const imagesPartUi: ThreadPartUi<ImagesDraft, ImagesPart> = {
  type: 101,
  label: 'threadParts.names.101',
  icon: 'image',
  Editor: ImagesEditor,
  View: ImagesView,
  fromView: (view) => ({
    imageIds: view.images.map((i) => i.id),
    images: view.images.map((i) => ({ id: i.id, thumbUrl: i.thumbUrl })),
  }),
  ready: (value) => (value?.imageIds?.length ?? 0) > 0,
};
