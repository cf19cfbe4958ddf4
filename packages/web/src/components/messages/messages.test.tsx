import type { DialogMessageItem, Page } from '@luntan/shared';
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../api/dispatcher';
import { chronological, type NoticeItem } from '../../api/message-queries';
import { readMessageView } from '../../routes/message';
import { envelope } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { ChatComposer } from './chat-composer';
import { noticeHref } from './notice-list';

const view = (query: string) => readMessageView(new URLSearchParams(query));

describe('the message centre address', () => {
  it('selects a category with ?type=, private messages by default', () => {
    expect(view('')).toEqual({ category: 'index', chat: null, chatWithoutUser: false, listPage: 1 });
    expect(view('type=account&p=3')).toMatchObject({ category: 'account', listPage: 3 });
    expect(view('type=nonsense')).toMatchObject({ category: 'index' });
  });

  it('opens a chat with page=chat, userId and nickname; without a usable userId it is the wrong user name', () => {
    expect(view('page=chat&userId=12&nickname=%E5%B0%8F%E6%98%8E')).toMatchObject({
      category: 'index',
      chat: { userId: 12, nickname: '小明' },
      chatWithoutUser: false,
    });
    expect(view('page=chat&type=thread&userId=12')).toMatchObject({ category: 'index', chat: { nickname: '' } });
    for (const query of ['page=chat', 'page=chat&userId=', 'page=chat&userId=abc', 'page=chat&userId=-4']) {
      expect(view(query), query).toMatchObject({ chat: null, chatWithoutUser: true });
    }
  });
});

function message(id: number, overrides: Partial<DialogMessageItem> = {}): DialogMessageItem {
  return {
    id,
    dialogId: 1,
    userId: 2,
    messageText: `m${id}`,
    imageUrl: '',
    createdAt: '2026-11-22T08:00:00.000Z',
    isMine: false,
    isApproved: true,
    isRead: true,
    ...overrides,
  };
}

function page(ids: number[], currentPage: number): ApiResult<Page<DialogMessageItem>> {
  return envelope({ pageData: ids.map((id) => message(id)), currentPage, perPage: 3, totalCount: 7, totalPage: 3 });
}

describe('the chat history', () => {
  it('lists the loaded pages oldest first, each message once (a later page overlaps after new messages)', () => {
    const pages = [page([9, 8, 7], 1), page([7, 6, 5], 2), envelope({}, -1, 'Network Error')] as Array<
      ApiResult<Page<DialogMessageItem>>
    >;
    expect(chronological(pages).map((m) => m.id)).toEqual([5, 6, 7, 8, 9]);
    expect(chronological(undefined)).toEqual([]);
  });
});

function notice(overrides: Partial<NoticeItem>): NoticeItem {
  return {
    id: 1,
    type: 'replied',
    category: 'thread',
    title: 't',
    content: '',
    threadId: null,
    postId: null,
    replyPostId: null,
    fromUser: null,
    readAt: null,
    createdAt: '2026-11-22T08:00:00.000Z',
    ...overrides,
  };
}

describe('a notice', () => {
  it('leads to the reply on its thread, to a comment’s reply, to a follower, or nowhere', () => {
    expect(noticeHref(notice({ threadId: 3, postId: 9 }))).toBe('/thread/3#post-9');
    expect(noticeHref(notice({ threadId: 3, postId: 9, replyPostId: 8 }))).toBe('/thread/3#post-8');
    expect(noticeHref(notice({ threadId: 3 }))).toBe('/thread/3');
    const follower = { id: 5, nickname: 'Bo', avatarUrl: '' };
    expect(noticeHref(notice({ type: 'followed', fromUser: follower }))).toBe('/user/5');
    expect(noticeHref(notice({ type: 'system', category: 'account' }))).toBeNull();
  });
});

describe('the message box', () => {
  function setUp() {
    const send = vi.fn(async () => true);
    const sendImage = vi.fn(async () => true);
    renderWithApp(<ChatComposer send={send} sendImage={sendImage} sending={false} />);
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    return { send, box };
  }

  it('sends on Enter and empties; Shift+Enter and an input method’s Enter do not send', async () => {
    const { send, box } = setUp();
    fireEvent.change(box, { target: { value: '  你好  ' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    expect(send).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(send).toHaveBeenCalledWith({ messageText: '你好' });
    expect(box.value).toBe('');
  });

  it('sends nothing empty', async () => {
    const { send, box } = setUp();
    fireEvent.change(box, { target: { value: '   ' } });
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(send).not.toHaveBeenCalled();
  });
});
