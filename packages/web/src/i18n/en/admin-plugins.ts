import type { Catalogue } from '../catalogue';
import type { adminPlugins as zh } from '../zh/admin-plugins';

/** English messages: admin-plugins (the same keys as zh/admin-plugins.ts). */
export const adminPlugins: Catalogue<typeof zh> = {
  pluginHooks: {
    plugin_global: {
      header_replace: 'The header of every page (wraps or replaces it)',
      footer_replace: 'The footer of every page (wraps or replaces it)',
    },
    plugin_index: {
      header_insert_before: 'Home page: before the header',
      header_insert_after: 'Home page: after the header',
      header_replace: 'Home page: the header (replaces it)',
      tabs_replace: 'Home page: the category tabs (replaces them)',
      topping_insert_before: 'Home page: before the sticky threads',
      topping_insert_after: 'Home page: after the sticky threads',
      topping_replace: 'Home page: the sticky threads (replaces them)',
      left_insert: 'Home page: the left column',
      right_insert: 'Home page: the right column',
      recommend_replace: 'Home page: the recommendations (replaces them)',
      qrcode_replace: 'Home page: the QR code (replaces it)',
      copyright_replace: 'Home page: the copyright (replaces it)',
      thread_extension_display_hook: 'Home page: each thread of the list',
    },
    plugin_post: {
      post_extension_entry_hook: 'Thread editor: the toolbar',
      post_extension_content_hook: 'Thread editor: below the text',
    },
    plugin_detail: {
      thread_extension_display_hook: 'Thread page: under the first post',
    },
    plugin_system: {
      add_page_hook: 'A page of its own, /plugin/{{appid}}/{{path}}',
    },
    plugin_user: {
      user_extension_action_hook: "Member's page: the action buttons",
      user_extension_left_layout_hook: "Member's page: the left column",
    },
  },
  webhooks: {
    intro:
      'When an event happens, the forum sends a signed JSON request to these addresses (X-Luntan-Signature: sha256=<HMAC>).',
    add: 'Add webhook',
    edit: 'Edit webhook',
    editButton: 'Edit',
    save: 'Save',
    close: 'Close',
    url: 'Payload URL',
    secret: 'Secret',
    secretHint: 'At least 12 characters; signs each delivery',
    secretKept: 'Leave empty to keep the stored secret',
    events: 'Events',
    enabled: 'Active',
    on: 'Active',
    off: 'Switched off',
    lastStatus: 'Last delivery',
    never: 'Not sent yet',
    ping: 'Send test',
    pinged: 'Test event sent',
    deliveries: 'Deliveries',
    deliveriesOf: 'Deliveries to {{url}}',
    noDeliveries: 'No deliveries yet',
    event: 'Event',
    statusLabel: 'Status',
    attempts: 'Attempts',
    answer: 'Result',
    time: 'Time',
    confirmDelete: 'Delete the webhook {{url}} and its deliveries?',
    signatureHint:
      'The receiver computes the HMAC-SHA256 of the body with the secret and compares it with X-Luntan-Signature; a failed delivery is retried after 1 min, 5 min, 30 min, 2 h and 12 h.',
    status: { pending: 'Retrying', sending: 'Sending', delivered: 'Delivered', failed: 'Failed' },
    group: {
      user: 'Users',
      thread: 'Threads',
      post: 'Posts',
      dialog: 'Private messages',
      order: 'Orders',
      payment: 'Payments',
      red_packet: 'Red packets',
      bounty: 'Bounty questions',
      withdrawal: 'Withdrawals',
      report: 'Reports',
      stop_words: 'Stop words',
    },
  },
};
