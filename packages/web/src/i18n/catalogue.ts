/**
 * The shape an English catalogue file must have: its Chinese file's keys, each a string. The catalogues are split
 * per feature (zh/<feature>.ts beside en/<feature>.ts, none over 400 lines) and merged by zh.ts, en.ts,
 * zh-admin.ts and en-admin.ts, so every key path stays the same for the pages.
 */
export type Catalogue<T> = T extends string ? string : { [K in keyof T]: Catalogue<T[K]> };
