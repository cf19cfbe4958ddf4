/** The plugin's words in the page's language (siteData.locale); Chinese by default, as the forum. */
const zh = {
  poll: '投票',
  addPoll: '添加投票',
  question: '投票问题',
  questionPlaceholder: '想问大家什么？',
  option: (n: number) => `选项 ${n}`,
  removeOption: (n: number) => `删除选项 ${n}`,
  addOption: '添加选项',
  needQuestion: '请填写投票问题',
  needOptions: (min: number) => `至少需要 ${min} 个选项`,
  sameOptions: '有两个选项相同',
  vote: '投票',
  voting: '投票中…',
  votes: (n: number) => `${n} 票`,
  total: (n: number) => `共 ${n} 票`,
  yourVote: '你的选择',
  signInToVote: '登录后即可投票',
  loadFailed: '投票加载失败',
  voteFailed: '投票失败',
};

const en: typeof zh = {
  poll: 'Poll',
  addPoll: 'Add a poll',
  question: 'Poll question',
  questionPlaceholder: 'What would you like to ask?',
  option: (n) => `Option ${n}`,
  removeOption: (n) => `Remove option ${n}`,
  addOption: 'Add an option',
  needQuestion: 'Write the question',
  needOptions: (min) => `A poll needs at least ${min} options`,
  sameOptions: 'Two options say the same',
  vote: 'Vote',
  voting: 'Voting…',
  votes: (n) => (n === 1 ? '1 vote' : `${n} votes`),
  total: (n) => (n === 1 ? '1 vote in all' : `${n} votes in all`),
  yourVote: 'your vote',
  signInToVote: 'Sign in to vote',
  loadFailed: 'The poll could not be loaded',
  voteFailed: 'The vote did not go through',
};

export type Texts = typeof zh;

export function texts(locale: string | undefined): Texts {
  return locale === 'en' ? en : zh;
}
