/** An English catalogue's shape: the keys of its Chinese file, each a string (`as const satisfies Texts<typeof zh>`). */
export type Texts<T> = { readonly [K in keyof T]: string };
