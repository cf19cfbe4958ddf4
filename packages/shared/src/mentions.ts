/**
 * How a post's Markdown names a member: `[@nickname](/user/12)`, a plain Markdown link whose text starts with `@`.
 * The server links it by the id and shows the member's nickname at the time of writing (whatever the text says), so a
 * nickname that is not unique, or holds spaces, still names one member. `@username` (older posts, or typed by hand)
 * still works.
 */

/** ASCII punctuation: a backslash before any of these makes it literal in CommonMark. */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

export function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_PUNCTUATION, '\\$&');
}

/** The address of a member's page, which a mention links to. */
export const PROFILE_PATH = /^\/user\/(\d{1,9})$/;

/** The Markdown the editor inserts for a mention. */
export function mentionMarkdown(user: { id: number; nickname: string }): string {
  return `[@${escapeMarkdown(user.nickname)}](/user/${user.id})`;
}
