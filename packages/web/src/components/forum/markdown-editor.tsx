import MarkdownIt from 'markdown-it';
import cjkFriendly from 'markdown-it-cjk-friendly';
import { useMemo, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { uploadImage } from '../../api/upload';
import { Icon, Spinner, Textarea, toast } from '../ui';
import { useSuggestions } from './topic-suggest';
import { EmojiPicker } from '../emoji/emoji-picker';
import { emojiMarkdown, type EmojiMarkdownEnv } from '../emoji/emoji-markdown';
import { useEmoji } from '../emoji/use-emoji';
import './prose.css';

/**
 * The preview's renderer. Raw HTML is off (it shows as text) and markdown-it refuses javascript:/vbscript:/data:
 * links, so the preview cannot run anything; the stored HTML is rendered and sanitised again by the server.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true }).use(cjkFriendly).use(emojiMarkdown);

export const EDITOR_ID = 'post-editor';

type Wrap = { before: string; after: string; placeholder: string };

/** Puts text around the selection (or a placeholder) of the editor, and answers the new value. */
export function wrapSelection(value: string, start: number, end: number, wrap: Wrap): string {
  const selected = value.slice(start, end) || wrap.placeholder;
  return value.slice(0, start) + wrap.before + selected + wrap.after + value.slice(end);
}

/**
 * Puts a block (an image) at `at` as a paragraph of its own: a blank line before and after it, so that Markdown does
 * not carry the list item, quote or paragraph above into it (a line right under `- item` belongs to that item).
 */
export function insertBlock(value: string, at: number, block: string): string {
  const before = value.slice(0, at);
  const after = value.slice(at);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  return before + lead + block + trail + after;
}

/** Markdown for an uploaded image. */
export function imageMarkdown(name: string, url: string): string {
  const alt = name.replace(/\.[a-z0-9]+$/i, '').replace(/[[\]\\]/g, '');
  return `![${alt}](${url})`;
}

export interface MarkdownEditorProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** Images go to this category's permission check. */
  categoryId?: number;
  canInsertImage: boolean;
  maxLength: number;
  /** More toolbar buttons (the editor's plugin slot). */
  toolbarExtra?: ReactNode;
}

/** A Markdown editor: toolbar, image upload by button, paste and drop, and a preview tab. */
export function MarkdownEditor({
  value,
  onChange,
  label,
  categoryId,
  canInsertImage,
  maxLength,
  toolbarExtra,
}: MarkdownEditorProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [uploading, setUploading] = useState(0);
  const mentions = useSuggestions(EDITOR_ID, value, onChange);
  const { lookup: emojiLookup } = useEmoji(tab === 'preview');
  const html = useMemo(
    () => (tab === 'preview' ? markdown.render(value, { emojiLookup } satisfies EmojiMarkdownEnv) : ''),
    [tab, value, emojiLookup],
  );

  const element = (): HTMLTextAreaElement | null =>
    typeof document === 'undefined' ? null : (document.getElementById(EDITOR_ID) as HTMLTextAreaElement | null);

  const insertImage = (text: string): void => {
    const el = element();
    const current = el ? el.value : value;
    onChange(insertBlock(current, el ? el.selectionEnd : current.length, text));
  };

  const wrap = (w: Wrap): void => {
    const el = element();
    if (!el) return;
    onChange(wrapSelection(el.value, el.selectionStart, el.selectionEnd, w));
    el.focus();
  };

  const upload = async (files: File[]): Promise<void> => {
    const images = files.filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return;
    if (!canInsertImage) {
      toast.warning(t('editor.noImagePermission'));
      return;
    }
    setUploading((n) => n + images.length);
    for (const file of images) {
      try {
        const result = await uploadImage(file, categoryId);
        if (result.Code === 0 && 'url' in result.Data) insertImage(imageMarkdown(file.name, result.Data.url));
        else toast.error(result.Message);
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = [...event.clipboardData.files];
    if (files.some((f) => f.type.startsWith('image/'))) {
      event.preventDefault();
      void upload(files);
    }
  };
  const onDrop = (event: DragEvent<HTMLTextAreaElement>): void => {
    const files = [...event.dataTransfer.files];
    if (files.length > 0) {
      event.preventDefault();
      void upload(files);
    }
  };

  const tools: Array<{ icon: 'bold' | 'italic' | 'link' | 'quote' | 'code'; title: string; wrap: Wrap }> = [
    { icon: 'bold', title: t('editor.bold'), wrap: { before: '**', after: '**', placeholder: t('editor.boldText') } },
    {
      icon: 'italic',
      title: t('editor.italic'),
      wrap: { before: '_', after: '_', placeholder: t('editor.italicText') },
    },
    {
      icon: 'link',
      title: t('editor.link'),
      wrap: { before: '[', after: '](https://)', placeholder: t('editor.linkText') },
    },
    {
      icon: 'quote',
      title: t('editor.quote'),
      wrap: { before: '\n> ', after: '\n', placeholder: t('editor.quoteText') },
    },
    { icon: 'code', title: t('editor.code'), wrap: { before: '\n```\n', after: '\n```\n', placeholder: 'code' } },
  ];

  return (
    <div className="lt-editor">
      <div className="lt-editor__bar" role="toolbar" aria-label={t('editor.toolbar')}>
        <div className="lt-editor__tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'write'} onClick={() => setTab('write')}>
            {t('editor.write')}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'preview'}
            onClick={() => setTab('preview')}
            data-testid="editor-preview-tab"
          >
            {t('editor.preview')}
          </button>
        </div>
        <div className="lt-editor__tools">
          {tab === 'write' ? (
            <>
              {tools.map((tool) => (
                <button
                  key={tool.icon}
                  type="button"
                  className="lt-editor__tool"
                  title={tool.title}
                  aria-label={tool.title}
                  onClick={() => wrap(tool.wrap)}
                >
                  <Icon name={tool.icon} />
                </button>
              ))}
              {canInsertImage ? (
                <label className="lt-editor__tool" title={t('editor.image')}>
                  <Icon name="image" />
                  <span className="lt-visually-hidden">{t('editor.image')}</span>
                  <input
                    type="file"
                    accept="image/png,image/jpeg,image/gif,image/webp"
                    multiple
                    hidden
                    data-testid="editor-image-input"
                    onChange={(event) => {
                      const files = [...(event.target.files ?? [])];
                      event.target.value = '';
                      void upload(files);
                    }}
                  />
                </label>
              ) : null}
              <EmojiPicker targetId={EDITOR_ID} onChange={onChange} align="end" />
              {uploading > 0 ? <Spinner size={16} /> : null}
            </>
          ) : null}
          {/* Kept mounted in the preview too: a plugin's button keeps its state. */}
          {toolbarExtra}
        </div>
      </div>
      {tab === 'write' ? (
        <div className="lt-mention-host">
          <Textarea
            id={EDITOR_ID}
            aria-label={label}
            value={value}
            onChange={onChange}
            rows={14}
            maxLength={maxLength}
            showLimit
            placeholder={t('editor.placeholder')}
            onPaste={onPaste}
            onDrop={onDrop}
            {...mentions.textareaProps}
          />
          {mentions.popup}
        </div>
      ) : (
        <div
          className="lt-editor__preview lt-prose"
          data-testid="editor-preview"
          dangerouslySetInnerHTML={{ __html: html || `<p>${t('editor.nothing')}</p>` }}
        />
      )}
    </div>
  );
}
