import { z } from 'zod';

/** What a field is called on the page, in both locales: the subject of its validation messages. */
export interface FieldLabel {
  zh: string;
  en: string;
  /** The zh unit its length is counted in, when not 个字符 (a password counts 位). */
  zhChars?: string;
}

/** Labels given to schemas with `labeled()`; validation messages look them up along the failing path. */
export const fieldLabels = z.registry<FieldLabel>();

/**
 * A copy of a field's schema that carries its label (a copy, so that a schema shared by fields of other meanings,
 * such as an id, keeps none). Label the finished schema: `.optional()` around it still finds the label, but a
 * `.refine()` or `.min()` after it makes a schema without one.
 */
export function labeled<T extends z.ZodType>(schema: T, label: FieldLabel): T {
  const copy = schema.clone();
  fieldLabels.add(copy, label);
  return copy;
}

/**
 * Labels by field name, for names that mean the same wherever they appear. A schema's own label (`labeled()`)
 * wins: a group's `name` is 用户组名称, a category's 分类名称.
 */
export const COMMON_FIELD_LABELS: Readonly<Record<string, FieldLabel>> = {
  username: { zh: '用户名', en: 'Username' },
  password: { zh: '密码', en: 'Password', zhChars: '位' },
  nickname: { zh: '昵称', en: 'Nickname' },
  signature: { zh: '签名', en: 'Signature' },
  messageText: { zh: '私信内容', en: 'Message' },
  title: { zh: '标题', en: 'Title' },
  content: { zh: '内容', en: 'Content' },
  text: { zh: '内容', en: 'Content' },
  name: { zh: '名称', en: 'Name' },
  type: { zh: '类型', en: 'Type' },
  status: { zh: '状态', en: 'Status' },
  sort: { zh: '排序', en: 'Sort order' },
  icon: { zh: '图标', en: 'Icon' },
  color: { zh: '颜色', en: 'Colour' },
  description: { zh: '描述', en: 'Description' },
  remark: { zh: '备注', en: 'Remark' },
  reason: { zh: '原因', en: 'Reason' },
  action: { zh: '操作', en: 'Action' },
  page: { zh: '页码', en: 'Page' },
  perPage: { zh: '每页条数', en: 'Items per page' },
  scope: { zh: '范围', en: 'Scope' },
  filter: { zh: '筛选条件', en: 'Filter' },
  search: { zh: '搜索词', en: 'Search words' },
  keyword: { zh: '搜索词', en: 'Search words' },
  essence: { zh: '精华', en: 'Essence' },
  complex: { zh: '列表类别', en: 'List kind' },
  draft: { zh: '草稿', en: 'Draft' },
  id: { zh: '编号', en: 'ID' },
  ids: { zh: '编号', en: 'IDs' },
  threadId: { zh: '主题编号', en: 'Thread ID' },
  postId: { zh: '回复编号', en: 'Post ID' },
  replyId: { zh: '所评论的回复', en: 'Reply' },
  commentPostId: { zh: '所回复的评论', en: 'Comment' },
  userId: { zh: '用户编号', en: 'User ID' },
  toUserId: { zh: '用户编号', en: 'User ID' },
  categoryId: { zh: '分类', en: 'Category' },
  categoriesId: { zh: '分类', en: 'Category' },
  categoryids: { zh: '分类', en: 'Categories' },
  groupId: { zh: '用户组', en: 'User group' },
  groupIds: { zh: '用户组', en: 'User groups' },
  permissions: { zh: '权限', en: 'Permissions' },
  isSubordinate: { zh: '允许邀请下级', en: 'Subordinates' },
  isCommission: { zh: '收入提成', en: 'Commission' },
  checked: { zh: '默认选中', en: 'Checked' },
  isSticky: { zh: '置顶', en: 'Sticky' },
  isEssence: { zh: '精华', en: 'Essence' },
  isFavorite: { zh: '收藏', en: 'Favourite' },
  isDeleted: { zh: '删除', en: 'Deleted' },
  isLiked: { zh: '点赞', en: 'Like' },
  isComment: { zh: '评论', en: 'Comment' },
  level: { zh: '压缩等级', en: 'Compression level' },
  width: { zh: '宽度', en: 'Width' },
  fps: { zh: '帧率', en: 'Frame rate' },
};
