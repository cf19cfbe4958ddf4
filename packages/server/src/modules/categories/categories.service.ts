import { Code, type CategoryItem } from '@luntan/shared';
import { AppError } from '../../core/errors.js';
import type { Category } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';

export const categoryNotFound = () => new AppError(Code.CATEGORY_NOT_FOUND);

/** The categories the viewer may see, as a tree (a child whose parent is hidden stands at the top). */
export function presentCategories(viewer: ViewerContext, rows: readonly Category[]): CategoryItem[] {
  const visible = rows.filter((c) => can(viewer, 'viewThreads', c.id));
  const items = new Map<number, CategoryItem>(
    visible.map((c) => [
      c.id,
      {
        categoryId: c.id,
        name: c.name,
        description: c.description,
        icon: c.icon,
        sort: c.sort,
        parentId: c.parentId,
        threadCount: c.threadCount,
        canViewThreads: true,
        canCreateThread: viewer.user !== null && can(viewer, 'createThread', c.id),
        children: [],
      },
    ]),
  );
  const roots: CategoryItem[] = [];
  for (const item of items.values()) {
    const parent = item.parentId ? items.get(item.parentId) : undefined;
    if (parent && parent !== item) parent.children.push(item);
    else roots.push(item);
  }
  return roots;
}

/**
 * The categories in which the viewer may post a thread, as a tree: a parent stays when the viewer may post in it or in
 * one of its children (its children then list only the ones the viewer may post in).
 */
export function postableCategories(viewer: ViewerContext, rows: readonly Category[]): CategoryItem[] {
  const keep = (items: CategoryItem[]): CategoryItem[] =>
    items.flatMap((item) => {
      const children = keep(item.children);
      return item.canCreateThread || children.length > 0 ? [{ ...item, children }] : [];
    });
  return keep(presentCategories(viewer, rows));
}
