import 'i18next';
import type { Messages } from './zh';
import type { AdminMessages } from './zh-admin';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // The back office's messages arrive with its pages (zh-admin.ts) but are typed as one catalogue.
    resources: { translation: Omit<Messages, 'admin'> & { admin: Messages['admin'] & AdminMessages } };
  }
}
