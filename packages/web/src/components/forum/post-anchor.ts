/** The id of a reply or comment on its thread's page: links from elsewhere (a notice) land on it. */
export function postAnchor(postId: number): string {
  return `post-${postId}`;
}
