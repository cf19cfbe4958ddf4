import type { Catalogue } from '../catalogue';
import type { common as zh } from '../zh/common';

/** English messages: common (the same keys as zh/common.ts). */
export const common: Catalogue<typeof zh> = {
  site: {
    defaultTitle: 'Welcome',
    defaultLogoAlt: 'Site logo',
    siteInfoFailed: 'Failed to fetch the site information',
    retry: 'Try again',
    closed: 'The site is closed',
    closedDefault: 'The site is under maintenance. Please come back later.',
    adminLogin: 'Administrator login',
  },
  /** The RSS feeds a page names in its head (<link rel="alternate">). */
  feed: {
    latest: 'Latest threads',
    category: 'Threads of this category',
    thread: 'Replies to this thread',
  },
  nav: {
    main: 'Main navigation',
    home: 'Home',
    message: 'Message',
    discover: 'Discover',
    personalCenter: 'Personal Center',
    logout: 'Log out',
    loginRegister: 'Login/Register',
    back: 'Back',
    skipToContent: 'Skip to content',
    userMenu: 'User menu',
    unread_one: '{{count}} unread',
    unread_other: '{{count}} unread',
  },
  search: {
    title: 'Search',
    label: 'Search',
    placeholder: 'Search threads and users',
    submit: 'Search',
    resultsFor: 'Results for “{{keyword}}”',
    prompt: 'Type a keyword and press Enter to search',
    empty: 'Nothing found',
    types: 'Result types',
    threads: 'Threads',
    users: 'Users',
    userStats: '{{threads}} threads · {{fans}} followers',
    inReply: 'Reply by {{name}}',
    inComment: 'Comment by {{name}}',
  },
  notFound: {
    title: 'resource not found',
    description: 'The page you are looking for may have been deleted, renamed or be temporarily unavailable',
    back: 'go back to the previous page',
    imageAlt: '404',
  },
  errors: {
    bug: 'A bug occurred, the page cannot be shown for now',
    assetTitle: 'The page failed to load',
    assetDescription: 'Some files this page needs could not be loaded. Check your connection and reload.',
    reload: 'Reload',
    home: 'Back to home',
  },
  admin: {
    enter: 'Back office',
  },
  status: {
    title: 'Account status',
    normal: 'Your account is in order',
    banned: 'Your account is banned',
    review: 'Your account is waiting for review',
    rejected: 'Your registration was rejected',
    ignored: 'Your registration was ignored',
    fields: 'Please complete your registration details first',
    reason: 'Reason: {{reason}}',
    fillFields: 'Complete them',
  },
  footer: {
    copyright: '© {{year}} {{siteName}}',
    poweredBy: 'Powered by Luntan {{version}}',
    recordCodeAlt: 'Public security record badge',
    language: 'Language',
  },
  ui: {
    loading: 'Loading',
    close: 'Close',
    inputCount: '{{length}} of {{limit}} characters',
  },
};
