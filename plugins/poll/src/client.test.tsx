import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMemo, useState } from 'react';
import { PollComposer, PollDisplay, PollEntry } from './client';
import type { PollStore } from './poll-entry';
import type { PluginAction, PluginCallOptions, PluginSiteData } from './host';
import type { PollView } from './rules';

afterEach(cleanup);

const english: PluginSiteData = { locale: 'en' };

/** A pluginAction whose call answers from a table of routes (what the forum would answer). */
function fakeAction(answers: Record<string, (init?: PluginCallOptions) => unknown>) {
  const call = vi.fn(async (path: string, init?: PluginCallOptions) => {
    const answer = answers[path];
    if (!answer) throw new Error(`no route ${path}`);
    return answer(init);
  });
  return { call: call as PluginAction['call'], calls: call.mock.calls };
}

const view = (over: Partial<PollView> = {}): PollView => ({
  threadId: 10,
  question: 'Tea or coffee?',
  options: [
    { text: 'Tea', votes: 1 },
    { text: 'Coffee', votes: 3 },
  ],
  total: 4,
  myVote: null,
  canVote: true,
  ...over,
});

describe('PollEntry and PollComposer', () => {
  type Callback = (threadId: number, thread: { threadId: number; isDraft: boolean }) => void | Promise<void>;

  /**
   * The editor's side: both slots rendered with one store, as the forum shares a plugin's store between its
   * components; onThreadCreated keeps the callback and threadCreated runs it as the editor would.
   */
  function mount({ siteData = english, threadId = 0 }: { siteData?: PluginSiteData; threadId?: number } = {}) {
    let registered: Callback | undefined;
    const release = vi.fn();
    const onThreadCreated = vi.fn((cb: Callback) => {
      registered = cb;
      return release;
    });
    const action = fakeAction({ create: () => ({ poll: view() }) });
    let store: PollStore = {};
    function Editor() {
      const [current, setCurrent] = useState<PollStore>({});
      store = current;
      const pluginAction = useMemo(
        () => ({ call: action.call, setStore: (partial: PollStore) => setCurrent((s) => ({ ...s, ...partial })) }),
        [],
      );
      const props = { renderData: { threadId, onThreadCreated }, siteData, pluginStore: current, pluginAction };
      return (
        <>
          <div data-testid="toolbar">
            <PollEntry {...props} />
          </div>
          <PollComposer {...props} />
        </>
      );
    }
    const utils = render(<Editor />);
    return {
      ...utils,
      action,
      release,
      onThreadCreated,
      store: () => store,
      threadCreated: async (id: number) => registered!(id, { threadId: id, isDraft: false }),
    };
  }

  it('creates the poll with the new thread id, trimmed and without blank options, then starts afresh', async () => {
    const { action, threadCreated, store } = mount();
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    // The switch sits in the toolbar; the form is the other slot's.
    expect(screen.getByTestId('toolbar').querySelector('input[type=checkbox]')).toBeTruthy();
    expect(screen.getByTestId('toolbar').querySelector('input[type=text]')).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Poll question' }), { target: { value: ' Tea or coffee? ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 1' }), { target: { value: 'Tea ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add an option' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 3' }), { target: { value: 'Coffee' } });
    await act(() => threadCreated(42));
    expect(action.calls).toEqual([
      ['create', { method: 'POST', body: { threadId: 42, question: 'Tea or coffee?', options: ['Tea', 'Coffee'] } }],
    ]);
    expect(store().draft).toEqual({ enabled: false, question: '', options: ['', ''] });
  });

  it("wears the site's classes", () => {
    mount();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    expect(screen.getByRole('checkbox', { name: 'Add a poll' }).closest('label')!.className).toBe('lt-check');
    expect(screen.getByRole('textbox', { name: 'Poll question' }).className).toBe('lt-textbox');
    expect(screen.getByRole('button', { name: 'Add an option' }).className).toContain('lt-button');
  });

  it('does nothing after the thread is created when no poll was added', async () => {
    const { action, threadCreated } = mount();
    await act(() => threadCreated(42));
    expect(action.calls).toEqual([]);
  });

  it('says what is missing, and refuses to create an incomplete poll', async () => {
    const { action, threadCreated } = mount();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    expect(screen.getByText('Write the question')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Poll question' }), { target: { value: 'Q?' } });
    expect(screen.getByText('A poll needs at least 2 options')).toBeTruthy();
    await expect(threadCreated(42)).rejects.toThrow('A poll needs at least 2 options');
    expect(action.calls).toEqual([]);
  });

  it('keeps 2 to 10 options', () => {
    mount();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Add a poll' }));
    expect(screen.queryByRole('button', { name: /Remove option/ })).toBeNull();
    for (let i = 0; i < 8; i += 1) fireEvent.click(screen.getByRole('button', { name: 'Add an option' }));
    expect(screen.getAllByRole('textbox', { name: /Option/ })).toHaveLength(10);
    expect(screen.queryByRole('button', { name: 'Add an option' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove option 10' }));
    expect(screen.getAllByRole('textbox', { name: /Option/ })).toHaveLength(9);
  });

  it('takes its callback back when it leaves the page', () => {
    const { unmount, release, onThreadCreated } = mount();
    expect(onThreadCreated).toHaveBeenCalledTimes(1);
    unmount();
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('renders nothing without the editor hook, or while an existing thread is edited', () => {
    const action = { call: fakeAction({}).call, setStore: vi.fn() };
    const { container } = render(
      <>
        <PollEntry siteData={english} pluginAction={action} />
        <PollComposer siteData={english} pluginAction={action} />
      </>,
    );
    expect(container.innerHTML).toBe('');
    cleanup();
    const editing = mount({ threadId: 7 });
    expect(editing.container.textContent).toBe('');
    expect(editing.onThreadCreated).not.toHaveBeenCalled();
  });

  it('speaks Chinese on a Chinese page', () => {
    mount({ siteData: { locale: 'zh' } });
    expect(screen.getByRole('checkbox', { name: '添加投票' })).toBeTruthy();
  });
});

describe('PollDisplay', () => {
  it('lets a signed-in member who has not voted vote, then shows the results', async () => {
    const action = fakeAction({
      get: () => ({ poll: view() }),
      vote: () => ({
        poll: view({
          options: [
            { text: 'Tea', votes: 1 },
            { text: 'Coffee', votes: 4 },
          ],
          total: 5,
          myVote: 1,
          canVote: false,
        }),
      }),
    });
    render(
      <PollDisplay siteData={english} threadData={{ threadId: 10 }} isLogin pluginAction={{ call: action.call }} />,
    );
    await screen.findByText('Tea or coffee?');
    expect(action.calls[0]).toEqual(['get', { method: 'GET', query: { threadId: 10 } }]);
    const submit = screen.getByRole('button', { name: 'Vote' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Coffee' }));
    fireEvent.click(submit);
    await screen.findByText('5 votes in all');
    expect(action.calls[1]).toEqual(['vote', { method: 'POST', body: { threadId: 10, option: 1 } }]);
    expect(screen.getByRole('listitem', { name: 'Coffee' }).textContent).toContain('4 votes · 80%');
    expect(screen.getByRole('listitem', { name: 'Coffee' }).textContent).toContain('your vote');
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('shows results with counts, percentages and bars to guests, with a hint to sign in', async () => {
    const action = fakeAction({ get: () => ({ poll: view({ canVote: false }) }) });
    render(
      <PollDisplay
        siteData={english}
        threadData={{ threadId: 10 }}
        isLogin={false}
        pluginAction={{ call: action.call }}
      />,
    );
    await screen.findByText('Tea or coffee?');
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.getByRole('listitem', { name: 'Tea' }).textContent).toContain('1 vote · 25%');
    expect(screen.getByRole('listitem', { name: 'Coffee' }).textContent).toContain('3 votes · 75%');
    const bars = document.querySelectorAll<HTMLElement>('[data-share]');
    expect([...bars].map((bar) => bar.style.width)).toEqual(['25%', '75%']);
    expect(screen.getByText(/Sign in to vote/)).toBeTruthy();
  });

  it('shows results to a member who voted', async () => {
    const action = fakeAction({ get: () => ({ poll: view({ myVote: 0, canVote: false }) }) });
    render(
      <PollDisplay siteData={english} threadData={{ threadId: 10 }} isLogin pluginAction={{ call: action.call }} />,
    );
    await screen.findByText('4 votes in all');
    expect(screen.getByRole('listitem', { name: 'Tea' }).textContent).toContain('your vote');
  });

  it('shows 0% for a poll nobody voted in', async () => {
    const empty = view({
      options: [
        { text: 'Tea', votes: 0 },
        { text: 'Coffee', votes: 0 },
      ],
      total: 0,
      canVote: false,
    });
    render(
      <PollDisplay
        siteData={english}
        threadData={{ threadId: 10 }}
        pluginAction={{ call: fakeAction({ get: () => ({ poll: empty }) }).call }}
      />,
    );
    await screen.findByText(/0 votes in all/);
    expect(screen.getByRole('listitem', { name: 'Tea' }).textContent).toContain('0 votes · 0%');
  });

  it("shows the server's message when a vote fails", async () => {
    const action = fakeAction({
      get: () => ({ poll: view() }),
      vote: () => {
        throw new Error('You have already voted');
      },
    });
    render(
      <PollDisplay siteData={english} threadData={{ threadId: 10 }} isLogin pluginAction={{ call: action.call }} />,
    );
    fireEvent.click(await screen.findByRole('radio', { name: 'Tea' }));
    fireEvent.click(screen.getByRole('button', { name: 'Vote' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You have already voted');
  });

  it('needs threadData, and renders nothing for a thread without a poll or without a thread', async () => {
    expect(PollDisplay.requiredProps).toEqual(['threadData']);
    expect(PollEntry.requiredProps).toEqual(['renderData']);
    const action = fakeAction({ get: () => ({ poll: null }) });
    const { container } = render(
      <PollDisplay siteData={english} threadData={{ threadId: 10 }} pluginAction={{ call: action.call }} />,
    );
    await waitFor(() => expect(action.calls).toHaveLength(1));
    expect(container.innerHTML).toBe('');
    const { container: none } = render(<PollDisplay siteData={english} pluginAction={{ call: action.call }} />);
    expect(none.innerHTML).toBe('');
    expect(action.calls).toHaveLength(1);
  });

  it('says so when the poll cannot be loaded', async () => {
    const action = fakeAction({});
    render(<PollDisplay siteData={english} threadData={{ threadId: 10 }} pluginAction={{ call: action.call }} />);
    expect((await screen.findByRole('alert')).textContent).toBe('The poll could not be loaded');
  });
});
