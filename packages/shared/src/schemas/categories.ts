import { z } from 'zod';
import { CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';

/** Largest id the databases store in an integer column: bigger ids are refused as -4001, never a 500. */
export const ID_MAX = 2_147_483_647;

/** An id in a JSON body (a number, as the family's client sends it). */
export const bodyId = z.number().int().min(1).max(ID_MAX);
/** An id in a query string (text that holds a number). */
export const queryId = z.coerce.number().int().min(1).max(ID_MAX);

export const CATEGORY_NAME_MAX = 30;
export const CATEGORY_DESCRIPTION_MAX = 200;

const plainLine = (max: number, min = 0) => z.string().trim().min(min).max(max).refine(noControlChars, CONTROL_CHARS);

const categoryFields = {
  name: labeled(plainLine(CATEGORY_NAME_MAX, 1), { zh: '分类名称', en: 'Category name' }),
  description: labeled(plainLine(CATEGORY_DESCRIPTION_MAX), { zh: '分类描述', en: 'Category description' }),
  icon: plainLine(500),
  sort: z.number().int().min(-1_000_000).max(1_000_000),
  /** 0 (or absent) for a top-level category. */
  parentId: labeled(z.number().int().min(0).max(ID_MAX), { zh: '上级分类', en: 'Parent category' }),
};

/** POST /api/backAdmin/categories.create */
export const categoryCreateBody = z.object({
  name: categoryFields.name,
  description: categoryFields.description.optional(),
  icon: categoryFields.icon.optional(),
  sort: categoryFields.sort.optional(),
  parentId: categoryFields.parentId.optional(),
});
export type CategoryCreateBody = z.infer<typeof categoryCreateBody>;

/** POST /api/backAdmin/categories.update: only the fields given change. */
export const categoryUpdateBody = z.object({
  id: bodyId,
  name: categoryFields.name.optional(),
  description: categoryFields.description.optional(),
  icon: categoryFields.icon.optional(),
  sort: categoryFields.sort.optional(),
  parentId: categoryFields.parentId.optional(),
});
export type CategoryUpdateBody = z.infer<typeof categoryUpdateBody>;

/**
 * POST /api/backAdmin/categories.delete: refused with -4005 while it holds sub-categories, or threads unless
 * `moveThreadsTo` names another category to move them to first (in the same transaction).
 */
export const categoryDeleteBody = z.object({
  id: bodyId,
  moveThreadsTo: labeled(bodyId.optional(), { zh: '转入的分类', en: 'Category to move the threads to' }),
});

/** One entry of GET /api/v3/categories (a tree: top-level categories with their children). */
export interface CategoryItem {
  categoryId: number;
  name: string;
  description: string;
  icon: string;
  sort: number;
  parentId: number;
  /** Published, approved, not deleted threads directly in this category. */
  threadCount: number;
  canViewThreads: boolean;
  canCreateThread: boolean;
  children: CategoryItem[];
}
