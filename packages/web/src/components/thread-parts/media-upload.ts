import type { AttachmentItem, FileAttachmentItem } from '@luntan/shared';
import { readAccessToken } from '../../api/token-store';

/** What an upload answered: the attachment, or the server's (or the network's) message. */
export type UploadOutcome<T> = { ok: true; data: T } | { ok: false; message: string };

/**
 * Uploads a file for a thread part (POST /api/v3/attachments, multipart) with XMLHttpRequest, so that the editor can
 * show its progress (fetch cannot tell how much of a body was sent).
 */
export function uploadWithProgress<T = FileAttachmentItem | AttachmentItem>(
  file: Blob,
  fileName: string,
  fields: Record<string, string>,
  onProgress: (fraction: number) => void,
): Promise<UploadOutcome<T>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, fileName);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v3/attachments');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText) as { Code: number; Message: string; Data: T };
        resolve(body.Code === 0 ? { ok: true, data: body.Data } : { ok: false, message: body.Message });
      } catch {
        resolve({ ok: false, message: `HTTP ${xhr.status}` });
      }
    };
    xhr.onerror = () => resolve({ ok: false, message: 'Network Error' });
    xhr.send(form);
  });
}

/** "1.2 MB", "35 KB", "800 B". */
export function fileSizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** "1:05", "12:00:03". */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * What the browser reads of a video or audio file before it is sent: its duration from the metadata and, for video,
 * a frame (at a tenth of the way, at most 1 s in) drawn on a canvas as the poster. Either may be missing (a format
 * the browser cannot decode): the server takes the upload anyway.
 */
export function readMediaInfo(file: File, kind: 'audio' | 'video'): Promise<{ duration: number; poster?: Blob }> {
  return new Promise((resolve) => {
    const el = document.createElement(kind);
    const url = URL.createObjectURL(file);
    let done = false;
    const finish = (out: { duration: number; poster?: Blob }) => {
      if (done) return;
      done = true;
      URL.revokeObjectURL(url);
      resolve(out);
    };
    const timer = window.setTimeout(() => finish({ duration: 0 }), 8000);
    el.preload = 'metadata';
    el.muted = true;
    el.onerror = () => {
      window.clearTimeout(timer);
      finish({ duration: 0 });
    };
    el.onloadedmetadata = () => {
      const duration = Number.isFinite(el.duration) ? el.duration : 0;
      if (kind === 'audio') {
        window.clearTimeout(timer);
        finish({ duration });
        return;
      }
      const video = el as HTMLVideoElement;
      const draw = () => {
        window.clearTimeout(timer);
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth || 320;
        canvas.height = video.videoHeight || 180;
        const g = canvas.getContext('2d');
        if (!g) return finish({ duration });
        g.drawImage(video, 0, 0, canvas.width, canvas.height);
        canvas.toBlob((blob) => finish(blob ? { duration, poster: blob } : { duration }), 'image/png');
      };
      // A recording without a duration (MediaRecorder's WebM) cannot be sought: its first frame is the poster.
      const at = duration > 0 ? Math.min(1, duration / 10) : 0;
      if (at === 0) {
        if (video.readyState >= 2) draw();
        else video.onloadeddata = draw;
        return;
      }
      video.onseeked = draw;
      video.currentTime = at;
    };
    el.src = url;
  });
}
