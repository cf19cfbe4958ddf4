/**
 * The poll plugin's server module: `GET get?threadId=`, `POST create {threadId, question, options}` and
 * `POST vote {threadId, option}`, served at /api/plugin/poll/<path>; each answers `{ poll }`. Everything lives in the
 * plugin store:
 *
 * - `poll:<threadId>`: `{ question, options, authorId, createdAt }`, written with `add`, so a thread's first poll stays
 * - `vote:<threadId>:<userId>`: the index of the option the member chose, written with `add` (one vote per member)
 * - `count:<threadId>:<index>`: the option's votes, kept with `increment`
 *
 * `add` and `increment` are atomic, so racing requests cannot create two polls, vote twice or lose a count. The limit
 * (README.md): the module cannot read threads, so it cannot tell a thread's author; the first signed-in member to
 * create the poll of a thread that has none owns it (the editor creates it right after the thread, so in practice
 * that is the author).
 */
import {
  definePluginServer,
  PluginError,
  PluginErrorCode as Code,
  type PluginRequest,
  type PluginStore,
} from '@luntan/plugin-sdk/server';
import {
  OPTION_MAX,
  OPTIONS_MAX,
  OPTIONS_MIN,
  pollProblem,
  QUESTION_MAX,
  type PollProblem,
  type PollView,
} from './rules';

export interface StoredPoll {
  question: string;
  options: string[];
  authorId: number;
  createdAt: string;
}

const keys = {
  poll: (threadId: number) => `poll:${threadId}`,
  vote: (threadId: number, userId: number) => `vote:${threadId}:${userId}`,
  count: (threadId: number, option: number) => `count:${threadId}:${option}`,
};

const invalid = (message: string) => new PluginError(Code.INVALID_PARAMETER, message);

function threadIdOf(value: unknown): number {
  const id = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw invalid('threadId must be a thread id');
  return id;
}

function bodyOf(request: PluginRequest): Record<string, unknown> {
  const { body } = request;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('The body must be an object');
  return body as Record<string, unknown>;
}

function signedIn(request: PluginRequest): number {
  if (!request.viewer) throw new PluginError(Code.UNAUTHORIZED, 'Sign in first');
  return request.viewer.id;
}

const PROBLEMS: Record<PollProblem, string> = {
  noQuestion: 'The question must not be empty',
  longQuestion: `The question may have at most ${QUESTION_MAX} characters`,
  fewOptions: `A poll has ${OPTIONS_MIN} to ${OPTIONS_MAX} options`,
  manyOptions: `A poll has ${OPTIONS_MIN} to ${OPTIONS_MAX} options`,
  emptyOption: 'An option must not be empty',
  longOption: `An option may have at most ${OPTION_MAX} characters`,
  sameOptions: 'Two options say the same',
};

/** The question and options as stored: trimmed, each checked. */
function checkPoll(question: unknown, options: unknown): { question: string; options: string[] } {
  if (typeof question !== 'string') throw invalid(PROBLEMS.noQuestion);
  if (!Array.isArray(options)) throw invalid('options must be a list');
  const texts = options.map((option) => (typeof option === 'string' ? option.trim() : ''));
  const problem = pollProblem(question.trim(), texts);
  if (problem) throw invalid(PROBLEMS[problem]);
  return { question: question.trim(), options: texts };
}

function isStoredPoll(value: unknown): value is StoredPoll {
  const poll = value as StoredPoll | null;
  return typeof poll === 'object' && poll !== null && typeof poll.question === 'string' && Array.isArray(poll.options);
}

async function readPoll(store: PluginStore, threadId: number): Promise<StoredPoll | null> {
  const value = await store.get(keys.poll(threadId));
  return isStoredPoll(value) ? value : null;
}

async function countVotes(store: PluginStore, threadId: number, optionCount: number): Promise<number[]> {
  const values = await Promise.all(
    Array.from({ length: optionCount }, (_, option) => store.get(keys.count(threadId, option))),
  );
  return values.map((value) => (typeof value === 'number' ? value : 0));
}

async function viewPoll(store: PluginStore, threadId: number, viewerId: number | null): Promise<PollView | null> {
  const poll = await readPoll(store, threadId);
  if (!poll) return null;
  const counts = await countVotes(store, threadId, poll.options.length);
  const mine = viewerId === null ? null : await store.get(keys.vote(threadId, viewerId));
  const myVote = typeof mine === 'number' ? mine : null;
  return {
    threadId,
    question: poll.question,
    options: poll.options.map((text, i) => ({ text, votes: counts[i] ?? 0 })),
    total: counts.reduce((sum, n) => sum + n, 0),
    myVote,
    canVote: viewerId !== null && myVote === null,
  };
}

export default definePluginServer((router, ctx) => {
  const { store } = ctx;

  router.get('get', async (request) => {
    const threadId = threadIdOf(request.query.threadId);
    return { poll: await viewPoll(store, threadId, request.viewer?.id ?? null) };
  });

  router.post('create', async (request) => {
    const authorId = signedIn(request);
    const body = bodyOf(request);
    const threadId = threadIdOf(body.threadId);
    const { question, options } = checkPoll(body.question, body.options);
    const poll: StoredPoll = { question, options, authorId, createdAt: new Date().toISOString() };
    if (!(await store.add(keys.poll(threadId), { ...poll }))) {
      throw new PluginError(Code.RESOURCE_EXIST, 'This thread already has a poll');
    }
    ctx.log.info('poll created', { threadId, authorId });
    return { poll: await viewPoll(store, threadId, authorId) };
  });

  router.post('vote', async (request) => {
    const userId = signedIn(request);
    const body = bodyOf(request);
    const threadId = threadIdOf(body.threadId);
    const poll = await readPoll(store, threadId);
    if (!poll) throw new PluginError(Code.RESOURCE_NOT_FOUND, 'This thread has no poll');
    const option = body.option;
    if (typeof option !== 'number' || !Number.isInteger(option) || option < 0 || option >= poll.options.length) {
      throw invalid(`option must be the number of an option, 0 to ${poll.options.length - 1}`);
    }
    if (!(await store.add(keys.vote(threadId, userId), option))) {
      throw new PluginError(Code.RESOURCE_EXIST, 'You have already voted');
    }
    await store.increment(keys.count(threadId, option), 1);
    return { poll: await viewPoll(store, threadId, userId) };
  });
});
