/** The spec's shared-link text: the title stripped of images, line breaks, paragraph tags and whitespace, cut to 17. */
export const SHARE_TEXT_MAX = 17;

export function shareText(title: string): string {
  const stripped = title
    .replace(/<img\b[^>]*>/gi, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/<\/?p\b[^>]*>/gi, '')
    .replace(/<br\s*\/?>/gi, '')
    .replace(/\s+/g, '');
  return [...stripped].slice(0, SHARE_TEXT_MAX).join('');
}
