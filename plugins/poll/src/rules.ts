/** The poll's rules and what the server answers: one copy for the components and the server module. */

export const QUESTION_MAX = 200;
export const OPTION_MAX = 100;
export const OPTIONS_MIN = 2;
export const OPTIONS_MAX = 10;

export type PollProblem =
  'noQuestion' | 'longQuestion' | 'fewOptions' | 'manyOptions' | 'emptyOption' | 'longOption' | 'sameOptions';

/** What is wrong with a trimmed question and trimmed options, or null. */
export function pollProblem(question: string, options: readonly string[]): PollProblem | null {
  if (!question) return 'noQuestion';
  if (question.length > QUESTION_MAX) return 'longQuestion';
  if (options.length < OPTIONS_MIN) return 'fewOptions';
  if (options.length > OPTIONS_MAX) return 'manyOptions';
  if (options.some((option) => !option)) return 'emptyOption';
  if (options.some((option) => option.length > OPTION_MAX)) return 'longOption';
  if (new Set(options).size !== options.length) return 'sameOptions';
  return null;
}

/** What `GET get` answers (null when the thread has no poll). */
export interface PollView {
  threadId: number;
  question: string;
  options: Array<{ text: string; votes: number }>;
  total: number;
  /** The option the viewer chose, or null (always null for a guest). */
  myVote: number | null;
  canVote: boolean;
}
