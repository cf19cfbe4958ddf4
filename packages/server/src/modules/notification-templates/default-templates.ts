import type { NotificationType } from '@luntan/shared';
import { msg } from '../../i18n/index.js';

/**
 * The family's 25 notification types (Discuz! Q v3) and one of ours (a new follower), with the in-site template a
 * new site starts with, in the site's language. `key` is how the code names a type (the family's notice id without
 * its channel); `typeName` is what the family's data and the back office call it; `type` is the notice type the
 * message centre files it under (which decides its tab). Templates are site content: administrators edit them.
 */
export interface DefaultTemplate {
  key: string;
  typeName: string;
  type: NotificationType;
  vars: Record<string, { zh: string; en: string }>;
  zh: { title: string; content: string };
  en: { title: string; content: string };
}

const v = {
  username: msg('notificationTemplates.userName'),
  nickname: msg('notificationTemplates.nickname'),
  sitename: msg('notificationTemplates.siteName'),
  groupname: msg('notificationTemplates.userGroup'),
  reason: msg('notificationTemplates.reason'),
  content: msg('notificationTemplates.content'),
  actor: msg('notificationTemplates.actingUser'),
  amount: msg('notificationTemplates.amount'),
  oldgroupname: msg('notificationTemplates.formerGroup'),
  newgroupname: msg('notificationTemplates.newGroup'),
  result: msg('notificationTemplates.outcome'),
  remark: msg('notificationTemplates.remark'),
};
type VarName = keyof typeof v;
const vars = (...names: VarName[]) => Object.fromEntries(names.map((n) => [`{${n}}`, v[n]])) as DefaultTemplate['vars'];

const t = (
  key: string,
  typeName: string,
  type: NotificationType,
  names: VarName[],
  zh: [string, string],
  en: [string, string],
): DefaultTemplate => ({
  key,
  typeName,
  type,
  vars: vars(...names),
  zh: { title: zh[0], content: zh[1] },
  en: { title: en[0], content: en[1] },
});

export const DEFAULT_TEMPLATES: readonly DefaultTemplate[] = [
  t(
    'registered.passed',
    '新用户注册通知',
    'system',
    ['username', 'nickname', 'sitename', 'groupname'],
    ['欢迎加入{sitename}', '{nickname}，欢迎你成为{sitename}的{groupname}。发言请遵守法律法规，祝你在这里愉快。'],
    [
      'Welcome to {sitename}',
      '{nickname}, welcome to {sitename} as a {groupname}. Please respect the law when you post, and enjoy your stay.',
    ],
  ),
  t(
    'registered.approved',
    '注册审核通过通知',
    'system',
    ['username', 'nickname'],
    ['注册审核通过', '{nickname}，你的注册申请已通过审核。'],
    ['Registration approved', '{nickname}, your registration has been approved.'],
  ),
  t(
    'registered.unapproved',
    '注册审核不通过通知',
    'system',
    ['username', 'nickname', 'reason'],
    ['注册审核未通过', '{nickname}，你的注册申请未通过审核，原因：{reason}'],
    ['Registration not approved', '{nickname}, your registration was not approved. Reason: {reason}'],
  ),
  t(
    'post.unapproved',
    '内容审核不通过通知',
    'system',
    ['username', 'nickname', 'content', 'reason'],
    ['内容审核未通过', '{nickname}，你发布的“{content}”未通过审核，原因：{reason}'],
    ['Post not approved', '{nickname}, your post "{content}" was not approved. Reason: {reason}'],
  ),
  t(
    'post.approved',
    '内容审核通过通知',
    'system',
    ['username', 'nickname', 'content'],
    ['内容审核通过', '{nickname}，你发布的“{content}”已通过审核。'],
    ['Post approved', '{nickname}, your post "{content}" has been approved.'],
  ),
  t(
    'post.deleted',
    '内容删除通知',
    'system',
    ['username', 'nickname', 'content', 'reason'],
    ['内容被删除', '{nickname}，你发布的“{content}”已被删除，原因：{reason}'],
    ['Post deleted', '{nickname}, your post "{content}" was deleted. Reason: {reason}'],
  ),
  t(
    'post.essence',
    '内容精华通知',
    'system',
    ['username', 'nickname', 'content'],
    ['内容被设为精华', '{nickname}，你发布的“{content}”被设为精华。'],
    ['Post marked as essence', '{nickname}, your post "{content}" was marked as essence.'],
  ),
  t(
    'post.sticky',
    '内容置顶通知',
    'system',
    ['username', 'nickname', 'content'],
    ['内容被置顶', '{nickname}，你发布的“{content}”已被置顶。'],
    ['Post made sticky', '{nickname}, your post "{content}" was made sticky.'],
  ),
  t(
    'post.update',
    '内容修改通知',
    'system',
    ['username', 'nickname', 'content'],
    ['内容被修改', '{nickname}，你发布的“{content}”已被管理员修改。'],
    ['Post edited', '{nickname}, your post "{content}" was edited by a moderator.'],
  ),
  t(
    'user.disable',
    '用户禁用通知',
    'system',
    ['username', 'nickname', 'reason'],
    ['账号被禁用', '{nickname}，你的账号已被禁用，原因：{reason}'],
    ['Account banned', '{nickname}, your account has been banned. Reason: {reason}'],
  ),
  t(
    'user.normal',
    '用户解除禁用通知',
    'system',
    ['username', 'nickname'],
    ['账号已解除禁用', '{nickname}，你的账号已恢复正常。'],
    ['Account restored', '{nickname}, your account is active again.'],
  ),
  t(
    'user.group',
    '用户角色调整通知',
    'system',
    ['username', 'nickname', 'oldgroupname', 'newgroupname'],
    ['用户组已调整', '{nickname}，你的用户组已由{oldgroupname}调整为{newgroupname}。'],
    ['User group changed', '{nickname}, your group changed from {oldgroupname} to {newgroupname}.'],
  ),
  t(
    'post.replied',
    '内容回复通知',
    'replied',
    ['username', 'nickname', 'actor', 'content'],
    ['有人回复了你', '{actor}回复了你：{content}'],
    ['New reply', '{actor} replied to you: {content}'],
  ),
  t(
    'post.liked',
    '内容点赞通知',
    'liked',
    ['username', 'nickname', 'actor', 'content'],
    ['有人赞了你', '{actor}赞了你的“{content}”'],
    ['New like', '{actor} liked your "{content}"'],
  ),
  t(
    'post.paid',
    '内容支付通知',
    'rewarded',
    ['username', 'nickname', 'actor', 'content', 'amount'],
    ['有人支付了你的内容', '{actor}为你的“{content}”支付了 {amount} 元'],
    ['Content paid', '{actor} paid {amount} for your "{content}"'],
  ),
  t(
    'post.rewarded',
    '内容打赏通知',
    'rewarded',
    ['username', 'nickname', 'actor', 'content', 'amount'],
    ['有人打赏了你', '{actor}打赏了你的“{content}”，你获得 {amount} 元'],
    ['New reward', '{actor} rewarded your "{content}": you received {amount}'],
  ),
  t(
    'post.reminded',
    '内容@通知',
    'related',
    ['username', 'nickname', 'actor', 'content'],
    ['有人@了你', '{actor}在“{content}”中提到了你'],
    ['You were mentioned', '{actor} mentioned you in "{content}"'],
  ),
  t(
    'withdraw.noticed',
    '提现通知',
    'withdrawal',
    ['username', 'nickname', 'amount', 'result'],
    ['提现通知', '{nickname}，你申请的 {amount} 元提现{result}。'],
    ['Withdrawal', '{nickname}, your withdrawal of {amount} {result}.'],
  ),
  t(
    'withdraw.withdraw',
    '提现失败通知',
    'withdrawal',
    ['username', 'nickname', 'amount', 'result', 'reason'],
    ['提现失败', '{nickname}，你申请的 {amount} 元提现{result}，金额已退回钱包。原因：{reason}'],
    [
      'Withdrawal failed',
      '{nickname}, your withdrawal of {amount} {result}; the money is back in your wallet. Reason: {reason}',
    ],
  ),
  t(
    'divide.income',
    '分成收入通知',
    'rewarded',
    ['username', 'nickname', 'content', 'amount'],
    ['分成收入', '{nickname}，你从“{content}”获得分成 {amount} 元。'],
    ['Commission income', '{nickname}, you earned {amount} in commission from "{content}".'],
  ),
  t(
    'question.asked',
    '问答提问通知',
    'questioned',
    ['username', 'nickname', 'actor', 'content'],
    ['有人向你提问', '{actor}向你提问：{content}'],
    ['New question', '{actor} asked you: {content}'],
  ),
  t(
    'question.answered',
    '问答回答通知',
    'questioned',
    ['username', 'nickname', 'actor', 'content'],
    ['你的提问有了回答', '{actor}回答了你的提问：{content}'],
    ['Question answered', '{actor} answered your question: {content}'],
  ),
  t(
    'question.expired',
    '问答过期通知',
    'rewarded',
    ['username', 'nickname', 'content', 'amount'],
    ['提问已过期', '{nickname}，你的提问“{content}”已过期，{amount} 元已退回。'],
    ['Question expired', '{nickname}, your question "{content}" expired; {amount} was refunded.'],
  ),
  t(
    'red_packet.gotten',
    '得到红包通知',
    'receiveredpacket',
    ['username', 'nickname', 'content', 'amount'],
    ['你得到了红包', '{nickname}，你在“{content}”中得到红包 {amount} 元。'],
    ['Red packet received', '{nickname}, you received a red packet of {amount} in "{content}".'],
  ),
  t(
    'question.rewarded',
    '悬赏问答通知',
    'threadrewarded',
    ['username', 'nickname', 'content', 'amount'],
    ['获得悬赏', '{nickname}，你在“{content}”中获得悬赏 {amount} 元。'],
    ['Reward received', '{nickname}, you received a reward of {amount} in "{content}".'],
  ),
  t(
    'question.rewarded.expired',
    '悬赏过期通知',
    'threadrewardedexpired',
    ['username', 'nickname', 'content', 'amount'],
    ['悬赏已过期', '{nickname}，你的悬赏“{content}”已过期，剩余 {amount} 元已退回。'],
    ['Reward expired', '{nickname}, your reward "{content}" expired; the remaining {amount} was refunded.'],
  ),
  // Ours: the family told nobody about a new follower.
  t(
    'user.followed',
    '用户关注通知',
    'followed',
    ['username', 'nickname', 'actor'],
    ['有新的关注者', '{actor}关注了你'],
    ['New follower', '{actor} followed you'],
  ),
  // Ours: the reporter hears what became of a report.
  t(
    'report.handled',
    '举报处理通知',
    'system',
    ['username', 'nickname', 'content', 'result', 'remark'],
    ['举报处理结果', '{nickname}，你对“{content}”的举报{result}。{remark}'],
    ['Your report was reviewed', '{nickname}, your report about "{content}" {result}. {remark}'],
  ),
  // Ours: a provider's payment that could not buy what it was for went back to the payer's wallet.
  t(
    'payment.returned',
    '支付退回通知',
    'rewarded',
    ['username', 'nickname', 'content', 'amount', 'reason'],
    ['支付已退回钱包', '{nickname}，你为“{content}”支付的 {amount} 元已退回你的钱包：{reason}'],
    [
      'Payment returned to your wallet',
      '{nickname}, the {amount} you paid for "{content}" is back in your wallet: {reason}',
    ],
  ),
];

/**
 * Earlier default texts, by key and language: a site whose template still reads exactly as one of them (nobody
 * edited it) gets the current default at its next start (seed.ts). Earlier defaults addressed members by their
 * user name; the withdrawal notice did not say which step it was.
 */
export const EARLIER_DEFAULTS: ReadonlyMap<string, readonly { title: string; content: string }[]> = new Map(
  DEFAULT_TEMPLATES.map((d) => {
    const byName = (text: { title: string; content: string }) => ({
      title: text.title.replaceAll('{nickname}', '{username}'),
      content: text.content.replaceAll('{nickname}', '{username}'),
    });
    const earlier = [byName(d.zh), byName(d.en)];
    if (d.key === 'withdraw.noticed') {
      earlier.push(
        { title: '提现通知', content: '{username}，你申请的 {amount} 元提现已处理。' },
        { title: 'Withdrawal', content: '{username}, your withdrawal of {amount} has been processed.' },
      );
    }
    if (d.key === 'withdraw.withdraw') {
      earlier.push(
        { title: '提现失败', content: '{username}，你申请的 {amount} 元提现失败，原因：{reason}' },
        { title: 'Withdrawal failed', content: '{username}, your withdrawal of {amount} failed. Reason: {reason}' },
      );
    }
    return [d.typeName, earlier];
  }),
);

/** The type name of a code-level key ('post.replied' → '内容回复通知'). */
export const TYPE_NAME_BY_KEY: ReadonlyMap<string, string> = new Map(DEFAULT_TEMPLATES.map((d) => [d.key, d.typeName]));

/** The notice type of a code-level key ('post.replied' → 'replied'). */
export const NOTICE_TYPE_BY_KEY: ReadonlyMap<string, NotificationType> = new Map(
  DEFAULT_TEMPLATES.map((d) => [d.key, d.type]),
);
