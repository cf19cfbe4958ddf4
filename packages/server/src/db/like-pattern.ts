/** `%part%` for LIKE, with the wildcards of the input taken literally (escape character: backslash). */
export const likePattern = (part: string): string => `%${part.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
