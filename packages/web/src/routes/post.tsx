import type { PostRenderData, ThreadCreatedCallback } from '@luntan/plugin-sdk';
import { Code, POST_CONTENT_MAX, THREAD_TITLE_MAX, type CategoryItem, type ThreadDetail } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import { data, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { categoriesQuery, draftsQuery, positiveInt, threadDetailQuery } from '../api/forum-queries';
import { cachedForum } from '../api/queries';
import { post } from '../api/mutate';
import { useAppContext, type AppContext } from '../app-context';
import { DraftList } from '../components/forum/draft-list';
import { EDITOR_ID, insertBlock, MarkdownEditor } from '../components/forum/markdown-editor';
import { PluginSlot } from '../components/plugin/plugin-slot';
import {
  canInsertPay,
  freeFractionToSend,
  freePercentOf,
  keepPercent,
  priceCents,
  type ThreadMoney,
} from '../components/money/thread-money';
import '../components/money/thread-money.css';
import { Button, Spinner, TextInput, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { useCaptcha } from '../components/community/captcha';
import { AnonymousChoice } from '../components/forum/anonymous-choice';
import { canPostAnonymously } from '../components/people/anonymous-user';
import type { RouteHandle } from '../routing/handle';
import './post.css';
import { endpoints } from '../api/endpoints';
import {
  draftsOf,
  indexesOf,
  ThreadPartEditors,
  unreadyParts,
  type PartDrafts,
} from '../components/thread-parts/part-editors';
import {
  mayInsertPosition,
  PositionEditor,
  positionDraftOf,
  positionToSend,
  type PositionDraft,
} from '../components/thread-parts/position-editor';
import { useRedPacketCheckout } from '../components/thread-parts/red-packet-pay';

export const handle: RouteHandle = { title: (t) => t('editor.title') };

/** Where an unsent new thread is kept on this device. */
export const LOCAL_DRAFT_KEY = 'luntan.draft.thread';

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  const threadId = positiveInt(new URL(request.url).searchParams.get('threadId'), 0);
  // The login guard has run: the viewer is known.
  const userId = cachedForum(ctx.queryClient)?.user?.userId;
  const [, detail] = await Promise.all([
    ctx.queryClient.ensureQueryData(categoriesQuery(ctx.api)),
    threadId ? ctx.queryClient.ensureQueryData(threadDetailQuery(ctx.api, threadId)) : null,
    // A new thread: the drafts saved earlier are offered above the form.
    !threadId && userId ? ctx.queryClient.ensureQueryData(draftsQuery(ctx.api, userId)) : null,
  ]);
  if (detail && detail.Code === Code.RESOURCE_NOT_FOUND) throw data(null, { status: 404 });
  return null;
}

interface DraftValues {
  categoryId: number;
  title: string;
  text: string;
  /**
   * A paid thread's price ("" or "0" free) and the percent (0-100) of its body everyone sees, sent as the
   * `freeWords` fraction. Not named freeWords: a draft saved when that was a character count must not read as %.
   */
  price?: string;
  freePercent?: string;
  /** The thread's parts being written, by type (components/thread-parts). */
  parts?: PartDrafts;
  /** Post anonymously (a new thread only, where thread.allowAnonymous is held). */
  anonymous?: boolean;
  /** Where the thread was written (thread.insertPosition). */
  position?: PositionDraft;
}

/** The price fields of a thread being edited (empty for a free one). */
function moneyValues(thread: (ThreadDetail & ThreadMoney) | null): Pick<DraftValues, 'price' | 'freePercent'> {
  if (!thread || priceCents(thread) <= 0) return {};
  return { price: thread.price, freePercent: freePercentOf(thread.freeWords) };
}

function flatten(categories: CategoryItem[]): CategoryItem[] {
  return categories.flatMap((c) => [c, ...c.children]);
}

/** How long the editor waits for the plugins' onThreadCreated callbacks before leaving for the new thread. */
const THREAD_CREATED_WAIT_MS = 5_000;

/** Runs the plugins' callbacks after a thread was created; a failing or slow one is logged, never blocks. */
async function runThreadCreated(
  callbacks: Iterable<ThreadCreatedCallback>,
  thread: { threadId: number; isDraft: boolean },
): Promise<void> {
  const runs = [...callbacks].map(async (callback) => {
    try {
      await callback(thread.threadId, thread);
    } catch (error) {
      console.warn('[plugin] onThreadCreated failed', error);
    }
  });
  let timer: number | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = window.setTimeout(resolve, THREAD_CREATED_WAIT_MS);
  });
  await Promise.race([Promise.all(runs), timeout]);
  window.clearTimeout(timer);
}

function readLocalDraft(): DraftValues | null {
  try {
    const raw = window.localStorage.getItem(LOCAL_DRAFT_KEY);
    return raw ? (JSON.parse(raw) as DraftValues) : null;
  } catch {
    return null;
  }
}

/**
 * The posting page: a new thread (with the saved drafts offered above it), or `?threadId=` to edit one (a server
 * draft is published from here too). Keyed by the thread, so that opening a draft starts from its own text.
 */
export function Component() {
  const [search] = useSearchParams();
  const threadId = positiveInt(search.get('threadId'), 0);
  if (threadId) return <PostForm key={threadId} threadId={threadId} />;
  return (
    <div className="lt-post-page">
      <DraftList />
      <PostForm key={0} threadId={0} />
    </div>
  );
}

function PostForm({ threadId }: { threadId: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const redPacketCheckout = useRedPacketCheckout((id) => void navigate(`/thread/${id}`, { replace: true }));
  const { forum } = useForum();
  // Only a new thread (thread.create) needs it; an edit or a draft publish is thread.update.
  const captcha = useCaptcha(threadId === 0 && forum?.other.createThreadWithCaptcha === true);
  const [search] = useSearchParams();
  const categoriesResult = useQuery(categoriesQuery(api)).data;
  const detailResult = useQuery({ ...threadDetailQuery(api, threadId), enabled: threadId > 0 }).data;
  const editing: ThreadDetail | null = threadId && detailResult && isSuccess(detailResult) ? detailResult.Data : null;

  const categories = flatten(categoriesResult && isSuccess(categoriesResult) ? categoriesResult.Data : []).filter(
    (c) => c.canCreateThread || c.categoryId === editing?.categoryId,
  );
  const initialCategory = positiveInt(search.get('categoryId'), 0);
  const [values, setValues] = useState<DraftValues>(() => ({
    categoryId: editing?.categoryId ?? initialCategory,
    title: editing?.title ?? '',
    text: editing?.content.text ?? '',
    ...moneyValues(editing),
    parts: draftsOf(editing),
    position: positionDraftOf(editing?.position),
  }));
  const [pending, setPending] = useState<'publish' | 'draft' | null>(null);
  const restored = useRef(false);
  const localSave = useRef<number | undefined>(undefined);
  const selectId = useId();
  const threadCreated = useRef(new Set<ThreadCreatedCallback>());
  // The same functions on every render: a plugin's effects that depend on them run once.
  const editorActions = useMemo(
    (): Pick<PostRenderData, 'setContent' | 'insert' | 'onThreadCreated'> => ({
      setContent: (text) => setValues((v) => ({ ...v, text })),
      insert: (text) => {
        const el = document.getElementById(EDITOR_ID) as HTMLTextAreaElement | null;
        setValues((v) => ({ ...v, text: insertBlock(v.text, el ? el.selectionEnd : v.text.length, text) }));
      },
      onThreadCreated: (callback) => {
        threadCreated.current.add(callback);
        return () => void threadCreated.current.delete(callback);
      },
    }),
    [],
  );

  // A new thread: bring back what was being written on this device, then keep saving it as it changes.
  useEffect(() => {
    if (threadId || restored.current) return;
    restored.current = true;
    const saved = readLocalDraft();
    if (saved && (saved.title || saved.text)) {
      setValues((v) => ({ ...v, ...saved, categoryId: saved.categoryId || v.categoryId }));
      toast.info(t('editor.restored'));
    }
  }, [threadId, t]);
  useEffect(() => {
    if (threadId || !restored.current) return;
    localSave.current = window.setTimeout(() => {
      if (values.title || values.text) window.localStorage.setItem(LOCAL_DRAFT_KEY, JSON.stringify(values));
      else window.localStorage.removeItem(LOCAL_DRAFT_KEY);
    }, 500);
    return () => window.clearTimeout(localSave.current);
  }, [threadId, values]);

  const categoryId = values.categoryId || categories[0]?.categoryId || 0;
  const canInsertImage =
    forum?.user?.isAdmin === true ||
    (forum?.permissions ?? []).some((p) => p === 'thread.insertImage' || p.endsWith('.thread.insertImage'));

  const mayCharge = canInsertPay(forum, categoryId);
  // Anonymity is chosen when the thread is made (thread.create), where the category allows it for the viewer.
  const mayPostAnonymously = !editing && canPostAnonymously(forum, categoryId);
  // Sent only by those who may charge (and always when editing a priced thread, so clearing the price frees it).
  const money = mayCharge
    ? { price: values.price?.trim() || '0', freeWords: freeFractionToSend(values.freePercent, editing?.freeWords) }
    : {};

  const send = async (asDraft: boolean): Promise<void> => {
    if (!categoryId) {
      toast.warning(t('editor.chooseCategory'));
      return;
    }
    const parts = values.parts ?? {};
    const hasParts = Object.values(parts).some((body) => body !== null && body !== undefined);
    if (!asDraft && (!values.title.trim() || (!values.text.trim() && !hasParts))) {
      toast.warning(t('editor.required'));
      return;
    }
    const unready = unreadyParts(parts);
    if (unready.length > 0) {
      toast.warning(
        t('threadParts.notReady', { parts: unready.map((type) => t(`threadParts.names.${type}` as never)).join('、') }),
      );
      return;
    }
    const place = positionToSend(values.position, editing?.position);
    if (place.incomplete) {
      toast.warning(t('threadParts.position.incomplete'));
      return;
    }
    setPending(asDraft ? 'draft' : 'publish');
    try {
      const indexes = indexesOf(parts, editing);
      const content = indexes ? { text: values.text, indexes } : { text: values.text };
      const answer = editing
        ? await post<ThreadDetail>(endpoints.threads.update, {
            threadId: editing.threadId,
            title: values.title,
            content,
            categoryId,
            ...money,
            ...('position' in place ? { position: place.position } : {}),
            ...(editing.isDraft ? { draft: asDraft } : {}),
          })
        : await post<ThreadDetail>(endpoints.threads.create, {
            categoryId,
            title: values.title,
            content,
            ...money,
            ...(mayPostAnonymously && values.anonymous ? { anonymous: 1 } : {}),
            ...(place.position ? { position: place.position } : {}),
            ...(asDraft ? { draft: true } : {}),
            ...(await captcha.take().then((c) => (c ? { captcha: c } : {}))),
          });
      if (!answer) return;
      if (!editing) {
        // A thread whose red packet waits for its payment is kept a draft: the answer says which it became.
        await runThreadCreated(threadCreated.current, { threadId: answer.threadId, isDraft: answer.isDraft });
        // Sent (published or saved on the server): a pending local save must not bring it back on the next visit.
        window.clearTimeout(localSave.current);
        window.localStorage.removeItem(LOCAL_DRAFT_KEY);
      }
      // Lists, counts and the thread itself changed.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['thread', answer.threadId] }),
        queryClient.invalidateQueries({ queryKey: ['threads'] }),
        queryClient.invalidateQueries({ queryKey: ['categories'] }),
      ]);
      // A red packet paid online: the thread waits as a draft, and the pay dialog takes over.
      if (!asDraft && redPacketCheckout.start(answer)) {
        toast.info(t('threadParts.redPacket.awaitingPayment'));
        return;
      }
      // Still a draft though published (its red packet's order lapsed): saved, and its page says what to do.
      toast.success(asDraft || answer.isDraft ? t('editor.draftSaved') : t('editor.published'));
      await navigate(asDraft ? `/thread/post?threadId=${answer.threadId}` : `/thread/${answer.threadId}`, {
        replace: true,
      });
    } finally {
      setPending(null);
    }
  };

  /** What the editor's plugin slots get as renderData (the SDK's PostRenderData). */
  const pluginRenderData: PostRenderData = {
    threadId,
    title: values.title,
    categoryId,
    content: values.text,
    ...editorActions,
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void send(false);
  };

  if (!categoriesResult || (threadId && !detailResult)) return <Spinner />;
  if (threadId && !editing) {
    return <p className="lt-card lt-empty">{detailResult?.Message}</p>;
  }

  return (
    <form className="lt-card lt-post-form" onSubmit={onSubmit} aria-labelledby="post-form-title" noValidate>
      <h1 id="post-form-title" className="lt-page__title">
        {editing ? t('editor.editTitle') : t('editor.title')}
      </h1>
      <div className="lt-field">
        <label className="lt-field__label" htmlFor={selectId}>
          {t('editor.category')}
        </label>
        <select
          id={selectId}
          className="lt-select"
          name="categoryId"
          value={categoryId}
          onChange={(event) => setValues((v) => ({ ...v, categoryId: Number(event.target.value) }))}
        >
          {categories.map((c) => (
            <option key={c.categoryId} value={c.categoryId}>
              {c.parentId ? `— ${c.name}` : c.name}
            </option>
          ))}
        </select>
      </div>
      <TextInput
        label={t('editor.titleLabel')}
        name="title"
        placeholder={t('editor.titlePlaceholder')}
        value={values.title}
        onChange={(title) => setValues((v) => ({ ...v, title }))}
        maxLength={THREAD_TITLE_MAX}
        showLimit
      />
      <MarkdownEditor
        label={t('editor.content')}
        value={values.text}
        onChange={(text) => setValues((v) => ({ ...v, text }))}
        categoryId={categoryId}
        canInsertImage={canInsertImage}
        maxLength={POST_CONTENT_MAX}
        toolbarExtra={
          <PluginSlot target="plugin_post" hook="post_extension_entry_hook" renderData={pluginRenderData} />
        }
      />
      <ThreadPartEditors
        drafts={values.parts ?? {}}
        onChange={(parts) => setValues((v) => ({ ...v, parts }))}
        categoryId={categoryId}
        threadId={threadId}
      />
      {mayInsertPosition(forum, categoryId) || editing?.position ? (
        <PositionEditor value={values.position} onChange={(position) => setValues((v) => ({ ...v, position }))} />
      ) : null}
      <PluginSlot target="plugin_post" hook="post_extension_content_hook" renderData={pluginRenderData} />
      {mayCharge ? (
        <fieldset className="lt-post-form__money" data-testid="paid-fields">
          <legend className="lt-visually-hidden">{t('threadMoney.editor.legend')}</legend>
          <TextInput
            label={t('threadMoney.editor.price')}
            name="price"
            mode="number"
            placeholder="0.00"
            append="¥"
            appendWidth="32px"
            value={values.price ?? ''}
            onChange={(price) => setValues((v) => ({ ...v, price }))}
          />
          <TextInput
            label={t('threadMoney.editor.freePercent')}
            name="freePercent"
            inputMode="numeric"
            placeholder="0"
            append="%"
            appendWidth="32px"
            value={values.freePercent ?? ''}
            onChange={(freePercent) => setValues((v) => ({ ...v, freePercent: keepPercent(freePercent) }))}
          />
          <p className="lt-post-form__hint">{t('threadMoney.editor.hint')}</p>
        </fieldset>
      ) : null}
      {mayPostAnonymously ? (
        <AnonymousChoice
          checked={values.anonymous === true}
          onChange={(anonymous) => setValues((v) => ({ ...v, anonymous }))}
        />
      ) : null}
      {captcha.element}
      {redPacketCheckout.dialog}
      <div className="lt-post-form__actions">
        {!editing || editing.isDraft ? (
          <Button onClick={() => void send(true)} loading={pending === 'draft'} data-testid="save-draft">
            {t('editor.saveDraft')}
          </Button>
        ) : null}
        <Button type="primary" htmlType="submit" loading={pending === 'publish'} data-testid="publish">
          {editing && !editing.isDraft ? t('editor.save') : t('editor.publish')}
        </Button>
      </div>
    </form>
  );
}
