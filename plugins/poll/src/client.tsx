/** The poll plugin's client module: the components plugin.json's entries name. */
export { PollComposer, PollEntry } from './poll-entry';
export { PollDisplay } from './poll-display';
