import type { Locale } from '@luntan/shared';
import type { MailMessage } from '../../core/mail.js';

export type MailKind = 'verify' | 'reset';

export interface MailVars {
  siteName: string;
  /** The member's display name. */
  name: string;
  link: string;
  minutes: number;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface Template {
  subject: (v: MailVars) => string;
  greeting: (v: MailVars) => string;
  lead: (v: MailVars) => string;
  button: string;
  expiry: (v: MailVars) => string;
  ignore: string;
}

const TEMPLATES: Record<MailKind, Record<Locale, Template>> = {
  verify: {
    zh: {
      subject: (v) => `【${v.siteName}】请验证你的邮箱`,
      greeting: (v) => `${v.name}，你好：`,
      lead: (v) => `请打开下面的链接，确认这个邮箱是你在「${v.siteName}」的邮箱。`,
      button: '验证邮箱',
      expiry: (v) => `链接 ${v.minutes} 分钟内有效，只能使用一次。`,
      ignore: '如果这不是你的操作，请忽略这封邮件。',
    },
    en: {
      subject: (v) => `[${v.siteName}] Please verify your email address`,
      greeting: (v) => `Hello ${v.name},`,
      lead: (v) => `Open the link below to confirm that this is your email address on ${v.siteName}.`,
      button: 'Verify email',
      expiry: (v) => `The link works once, within ${v.minutes} minutes.`,
      ignore: 'If you did not ask for this, ignore this email.',
    },
  },
  reset: {
    zh: {
      subject: (v) => `【${v.siteName}】重置密码`,
      greeting: (v) => `${v.name}，你好：`,
      lead: (v) =>
        `有人（希望是你）申请重置你在「${v.siteName}」的密码。打开下面的链接设置新密码；设置后，所有已登录的设备都会退出登录。`,
      button: '设置新密码',
      expiry: (v) => `链接 ${v.minutes} 分钟内有效，只能使用一次。`,
      ignore: '如果不是你申请的，请忽略这封邮件，你的密码不会改变。',
    },
    en: {
      subject: (v) => `[${v.siteName}] Reset your password`,
      greeting: (v) => `Hello ${v.name},`,
      lead: (v) =>
        `Someone (we hope you) asked to reset your password on ${v.siteName}. Open the link below to set a new ` +
        'one; every signed-in device will then be signed out.',
      button: 'Set a new password',
      expiry: (v) => `The link works once, within ${v.minutes} minutes.`,
      ignore: 'If you did not ask for this, ignore this email: your password stays as it is.',
    },
  },
};

/** A message in the recipient's language: subject, plain text, and simple HTML (every variable escaped). */
export function renderMail(kind: MailKind, locale: Locale, to: string, vars: MailVars): MailMessage {
  const t = TEMPLATES[kind][locale];
  const text = [
    t.greeting(vars),
    '',
    t.lead(vars),
    '',
    vars.link,
    '',
    t.expiry(vars),
    t.ignore,
    '',
    vars.siteName,
  ].join('\n');
  const e = (s: string) => escapeHtml(s);
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">` +
    `<p>${e(t.greeting(vars))}</p><p>${e(t.lead(vars))}</p>` +
    `<p><a href="${e(vars.link)}" style="display:inline-block;padding:8px 16px;background:#2469f6;color:#fff;` +
    `text-decoration:none;border-radius:4px">${e(t.button)}</a></p>` +
    `<p style="word-break:break-all;font-size:13px;color:#555">${e(vars.link)}</p>` +
    `<p style="font-size:13px;color:#555">${e(t.expiry(vars))} ${e(t.ignore)}</p>` +
    `<p>${e(vars.siteName)}</p></body></html>`;
  return { to, subject: t.subject(vars), text, html };
}
